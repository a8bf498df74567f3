package mcptool

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/invopop/jsonschema"

	"github.com/mcpgen/mcpgen/internal/schemaref"
)

// Audit writes one record per tool call to l: the tool, the session, the
// duration, the outcome (ok, tool_error, invalid_arguments, internal_error,
// rate_limited, busy, timeout, declined, cancelled, input_required,
// forbidden, protocol_error), the size of the arguments and, for a call
// with a verified token, its subject (never the token). With withArguments, the
// arguments too, with every property marked jsonschema:"writeOnly" (secrets)
// replaced by "[REDACTED]".
func Audit(l *slog.Logger, withArguments bool) RegistryOption {
	return registryOption(func(c *registryConfig) { c.audit, c.auditArgs = l, withArguments })
}

func (r *Registry) auditCall(ctx context.Context, cs *callState, args json.RawMessage, start time.Time, o outcome) {
	session := ""
	if cs.peer != nil {
		session = cs.peer.SessionID()
	}
	attrs := []slog.Attr{
		slog.String("tool", cs.tool.name),
		slog.String("session", session),
		slog.Duration("duration", time.Since(start)),
		slog.String("outcome", o.word()),
		slog.Int("arg_bytes", len(args)),
	}
	if ti := cs.tokenInfo(); ti != nil { // who called; never the token
		attrs = append(attrs, slog.String("subject", ti.UserID))
	}
	if r.cfg.auditArgs {
		attrs = append(attrs, slog.Any("arguments", redact(cs.tool.plan.Schema, args)))
	}
	r.cfg.audit.LogAttrs(ctx, slog.LevelInfo, "mcp tool call", attrs...)
}

// redact returns the arguments with writeOnly properties hidden. Arguments
// that are not a JSON object are summarised, not logged.
func redact(s *jsonschema.Schema, args json.RawMessage) any {
	if len(args) == 0 {
		return map[string]any{}
	}
	var v any
	if err := json.Unmarshal(args, &v); err != nil {
		return "(not JSON)"
	}
	return redactValue(s, s, v)
}

func redactValue(root, s *jsonschema.Schema, v any) any {
	s = schemaref.Typed(root, s)
	if s == nil {
		return v
	}
	if s.WriteOnly {
		return "[REDACTED]"
	}
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			var ps *jsonschema.Schema
			if s.Properties != nil {
				ps, _ = s.Properties.Get(k)
			}
			if ps == nil && s.AdditionalProperties != nil && s.AdditionalProperties != jsonschema.FalseSchema {
				ps = s.AdditionalProperties
			}
			out[k] = redactValue(root, ps, val)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, val := range x {
			out[i] = redactValue(root, s.Items, val)
		}
		return out
	}
	return v
}
