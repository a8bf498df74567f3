package sdkpatch

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Pins what go-sdk v1.8.0 drops of a request, which mcptool's transports
// carry beside it in _meta (which go-sdk keeps):
//
//   - the 2025-11-25 "task" param of tools/call: go-sdk decodes the params
//     into CallToolParamsRaw, which has no field for it (LiftParam moves
//     it into _meta, called by mcptool's liftTaskParam on both
//     transports). Retire when go-sdk serves the 2025-11-25 tasks or keeps
//     unknown params;
//   - the tasks extension's notifications.taskIds of subscriptions/listen:
//     go-sdk decodes the filter into NotificationSubscriptions, without it
//     (mcptool's tasklisten.go withListen over HTTP; stdio.go attachListen
//     with SetMeta and DropMeta). Retire when go-sdk serves listens naming
//     taskIds.
//
// When go-sdk starts keeping either, this test fails: the patch can go.
func TestGoSDKDropsWhatTransportsCarry(t *testing.T) {
	for _, tc := range []struct {
		name, params, field string
		into                any
	}{
		{"tools/call task", `{"name":"t","arguments":{},"task":{"ttl":60000},"_meta":{"k":1}}`, `"task"`, &mcp.CallToolParamsRaw{}},
		{"subscriptions/listen taskIds", `{"notifications":{"taskIds":["a"],"toolsListChanged":true},"_meta":{"k":1}}`, `"taskIds"`, &mcp.SubscriptionsListenParams{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := json.Unmarshal([]byte(tc.params), tc.into); err != nil {
				t.Fatal(err)
			}
			out, err := json.Marshal(tc.into)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(out), tc.field) {
				t.Errorf("go-sdk keeps %s now (%s): the patch that carries it can go", tc.field, out)
			}
			if !strings.Contains(string(out), `"_meta":{"k":1}`) {
				t.Errorf("go-sdk no longer keeps _meta (%s): the patch that carries %s there breaks", out, tc.field)
			}
		})
	}
}
