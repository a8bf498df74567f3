package mcpredis_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"log"
	"net/http"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpredis "github.com/mcpgen/mcpgen/adapters/redis"
	"github.com/mcpgen/mcpgen/mcptool"
)

// A replica: its registry keeps limits, caps, tasks and the requestState
// key in Redis, and its HTTP handler keeps 2025-era stream events there.
// Run N of these behind a load balancer (docs/deploy.md). It needs a Redis
// server, so it is compiled but not run here.
func ExampleOpen() {
	ctx := context.Background()
	cl, err := mcpredis.Open(ctx, "redis://127.0.0.1:6379/0", nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cl.Close()

	reg := mcptool.NewRegistry(cl.RegistryOptions()...)
	_ = reg.Add("publish", func(ctx context.Context, in struct {
		Draft string `json:"draft"`
	}) (string, error) {
		return "published " + in.Draft, nil
	}, mcptool.MaxConcurrency(2)) // two at once across all replicas

	srv := reg.Server(&mcp.Implementation{Name: "replica", Version: "1.0.0"}, nil)
	http.Handle("/mcp", srv.Handler(cl.HTTPOptions()))
	log.Fatal(http.ListenAndServe("127.0.0.1:8081", nil))
}

// The requestState key comes from MCPGEN_STATE_KEY (base64 of 32 bytes) or
// the file MCPGEN_STATE_KEY_FILE names.
func ExampleStateKeyFromEnv() {
	os.Setenv(mcpredis.EnvStateKey, base64.StdEncoding.EncodeToString([]byte(strings.Repeat("k", 32))))
	defer os.Unsetenv(mcpredis.EnvStateKey)
	key, err := mcpredis.StateKeyFromEnv()
	fmt.Println(len(key), err)

	os.Setenv(mcpredis.EnvStateKey, "c2hvcnQ=") // "short"
	_, err = mcpredis.StateKeyFromEnv()
	fmt.Println(err)
	// Output:
	// 32 <nil>
	// mcpredis: MCPGEN_STATE_KEY: the key is 5 bytes; want 32 (make one with: head -c32 /dev/urandom | base64)
}
