package mcptool

import (
	"encoding/json"

	"github.com/mcpgen/mcpgen/mcptool/internal/wire"
)

// JSON-RPC batches. go-sdk serves them for the protocol revisions before
// 2025-06-18 (a 2025-03-26 session, or a POST whose Mcp-Protocol-Version
// says 2025-03-26), and answers every call of a batch at once. A body's
// charge (wire.Cost.Charge) covers decoding it, not the answers it asks
// for: a call of a few bytes can ask for a whole tools/list. So a batch is
// bounded twice, before anything decodes it:
//
//   - it holds at most maxBatch messages (a larger one gets 413, as a body
//     beyond MaxBodyValues does; StdioTransport answers it -32600);
//   - each of its calls is charged what its answer may cost (batchCharge),
//     in the in-flight budget, with the body's own charge, until the
//     batch's response is written.

// maxBatch is the most messages one JSON-RPC batch may hold.
const maxBatch = 16

// answerFloor is the least a call of a batch is charged for its answer:
// more than serving a tools/list of tens of tools, a view's page (about
// 430 KiB allocated for the default page) or a small tool result
// allocates (TestBatchChargeCoversAnswers).
const answerFloor = 512 << 10

// answerPerListed is what serving a tools/list allocates per byte of the
// definitions it lists (listedBytes): the result, its encoding, the event
// streamed (measured by TestBatchChargeCoversAnswers: about 7).
const answerPerListed = 10

// batchCharge is what the answers to b's calls may cost, in bytes: for
// each call, the larger of answerFloor and what a tools/list of every
// tool of set (nil: none) costs; 0 for a body that is no batch, or has
// no call.
func batchCharge(set *toolSet, b *wire.Body) int64 {
	if !b.Batch {
		return 0
	}
	calls := int64(0)
	for i := range b.Messages {
		if m := &b.Messages[i]; m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null" {
			calls++
		}
	}
	if calls == 0 {
		return 0
	}
	per := int64(answerFloor)
	if set != nil {
		per = max(per, answerPerListed*listedBytes(set))
	}
	return calls * per
}

// listedBytes is about what the definitions of set's tools take encoded:
// the raw schemas and the text, and a share for the rest.
func listedBytes(set *toolSet) int64 {
	var n int64
	for _, t := range set.sorted {
		d := t.def
		n += int64(len(d.Name)+len(d.Title)+len(d.Description)) + 512
		for _, s := range []any{d.InputSchema, d.OutputSchema} {
			switch s := s.(type) {
			case nil:
			case json.RawMessage:
				n += int64(len(s))
			default:
				n += 4 << 10
			}
		}
	}
	return n
}
