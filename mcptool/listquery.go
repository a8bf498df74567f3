package mcptool

import (
	"github.com/mcpgen/mcpgen/mcptool/internal/sdkpatch"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The query of a tools/list (SEP-1821): where the wires put it and how
// a listing reads it.

// queryMetaKey is where StdioTransport and Server.Handler move the query
// of a tools/list (SEP-1821, experimental), which go-sdk would drop.
const queryMetaKey = "io.mcpgen/query"

// listQuery returns the query of a tools/list (SEP-1821, lifted into
// _meta by the transports), removing it from the request.
func listQuery(req *mcp.ListToolsRequest) (string, bool) {
	if req.Params == nil {
		return "", false
	}
	v, ok := req.Params.Meta[queryMetaKey]
	if !ok {
		return "", false
	}
	delete(req.Params.Meta, queryMetaKey)
	q, _ := v.(string)
	return q, true
}

// liftQuery moves params.query of a tools/list message into
// params._meta[queryMetaKey] (sdkpatch.LiftParam): go-sdk drops it.
func liftQuery(msg []byte) []byte {
	return sdkpatch.LiftParam(msg, "tools/list", "query", queryMetaKey)
}

// listQueryLimit bounds the tools a tools/list with a query returns.
const listQueryLimit = 10
