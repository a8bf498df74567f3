//lint:file-ignore SA1019 sampling, roots and logging are deprecated by the 2026-07-28 revision (SEP-2577) but remain in the protocol, and mcpgen supports them in both eras.

package mcptool

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	gjs "github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Ask asks the client for one round of input: elicitation (*mcp.ElicitParams),
// sampling (*mcp.CreateMessageParams or *mcp.CreateMessageWithToolsParams) or
// roots (*mcp.ListRootsParams), by keys of the tool's choosing. The answers
// come back under the same keys: *mcp.ElicitResult,
// *mcp.CreateMessageWithToolsResult and *mcp.ListRootsResult.
//
// One call site serves both protocol eras. On a 2025-era session the requests
// are sent to the client one by one and Ask waits for the answers. On a
// 2026-07-28 request Ask returns [ErrInputRequired] until the client has
// answered; see there. Keys must be stable from one run of the tool to the
// next. An accepted elicitation whose content does not match the requested
// schema is asked again.
func Ask(ctx context.Context, requests mcp.InputRequestMap) (mcp.InputResponseMap, error) {
	cs := stateFrom(ctx)
	if cs == nil || cs.peer == nil {
		return nil, fmt.Errorf("%w: the tool was not called through an MCP session", ErrInputUnsupported)
	}
	if p, ok := cs.peer.(roundAsker); ok {
		if out, ok, err := p.askRound(ctx, cs, requests); ok {
			return out, err
		}
	}
	keys := slices.Sorted(maps.Keys(requests))
	out := mcp.InputResponseMap{}
	if cs.req != nil && isModern(cs.req) {
		caps := cs.req.ClientCapabilities()
		for _, k := range keys {
			if err := capable(caps, requests[k]); err != nil {
				return nil, fmt.Errorf("%w (%s)", err, k)
			}
		}
		missing := mcp.InputRequestMap{}
		for _, k := range keys {
			if resp, ok := cs.answer(k, requests[k]); ok {
				out[k] = resp
			} else {
				missing[k] = requests[k]
			}
		}
		if len(missing) == 0 {
			return out, nil
		}
		cs.addPending(missing)
		return nil, ErrInputRequired
	}
	for _, k := range keys {
		resp, err := cs.peer.Ask(ctx, requests[k])
		if err != nil {
			if errors.Is(err, ErrInputUnsupported) {
				return nil, fmt.Errorf("%w (%s)", err, k)
			}
			return nil, fmt.Errorf("mcptool: input request %q: %w", k, err)
		}
		out[k] = resp
	}
	return out, nil
}

// roundAsker is a peer that asks a whole round of input itself (a task, in
// its store); handled is false when it leaves the round to Ask.
type roundAsker interface {
	askRound(ctx context.Context, cs *callState, requests mcp.InputRequestMap) (out mcp.InputResponseMap, handled bool, err error)
}

// Elicit asks the user for input through the client, under key. See [Ask].
// The answer's Content is go-sdk's decoding of what the client sent: its
// numbers are float64s.
func Elicit(ctx context.Context, key string, params *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	out, err := Ask(ctx, mcp.InputRequestMap{key: params})
	if err != nil {
		return nil, err
	}
	return out[key].(*mcp.ElicitResult), nil
}

// Sample asks the client's model for a message, under key. See [Ask].
func Sample(ctx context.Context, key string, params *mcp.CreateMessageParams) (*mcp.CreateMessageWithToolsResult, error) {
	out, err := Ask(ctx, mcp.InputRequestMap{key: params})
	if err != nil {
		return nil, err
	}
	return out[key].(*mcp.CreateMessageWithToolsResult), nil
}

// ListRoots asks the client for its roots, under key. See [Ask].
func ListRoots(ctx context.Context, key string) (*mcp.ListRootsResult, error) {
	out, err := Ask(ctx, mcp.InputRequestMap{key: &mcp.ListRootsParams{}})
	if err != nil {
		return nil, err
	}
	return out[key].(*mcp.ListRootsResult), nil
}

// isModern reports whether req uses the 2026-07-28 per-request protocol. The
// per-request _meta is authoritative: a 2025-era session that asked for a
// newer version in initialize was answered with an older one.
func isModern(req *mcp.CallToolRequest) bool { return modernMeta(req.Params.Meta) }

// modernMeta reports whether a request's _meta names a protocol revision of
// 2026-07-28 or later.
func modernMeta(meta mcp.Meta) bool {
	v, _ := meta[mcp.MetaKeyProtocolVersion].(string)
	return v >= modernVersion
}

// answer returns the client's answer to request r under key, if it has one
// that fits.
func (cs *callState) answer(key string, r mcp.InputRequest) (mcp.InputResponse, bool) {
	cs.mu.Lock()
	raw, ok := cs.answers[key]
	cs.mu.Unlock()
	if !ok {
		return nil, false
	}
	switch p := r.(type) {
	case *mcp.ElicitParams:
		var res mcp.ElicitResult
		if json.Unmarshal(raw, &res) != nil || res.Action == "" {
			return nil, false
		}
		// Content that does not fit is asked again, except the answer to
		// confirm's question, which confirm judges itself: anything but
		// {"confirm": true} is a refusal in both eras, not a question asked
		// until the client gives up.
		if res.Action == "accept" && key != confirmKey && !elicitedContentValid(p, res.Content) {
			return nil, false
		}
		return &res, true
	case *mcp.CreateMessageParams, *mcp.CreateMessageWithToolsParams:
		var res mcp.CreateMessageWithToolsResult
		if json.Unmarshal(raw, &res) != nil || res.Role == "" {
			return nil, false
		}
		return &res, true
	case *mcp.ListRootsParams:
		var res mcp.ListRootsResult
		if json.Unmarshal(raw, &res) != nil || res.Roots == nil {
			return nil, false
		}
		return &res, true
	}
	return nil, false
}

// elicitedContentValid checks accepted content against the requested schema:
// go-sdk checks it on the client side only.
func elicitedContentValid(p *mcp.ElicitParams, content map[string]any) bool {
	if p.RequestedSchema == nil {
		return true
	}
	raw, err := json.Marshal(p.RequestedSchema)
	if err != nil {
		return false
	}
	var s gjs.Schema
	if json.Unmarshal(raw, &s) != nil {
		return false
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return false
	}
	var inst any = map[string]any{}
	if content != nil {
		inst = content
	}
	return rs.Validate(inst) == nil
}

func (cs *callState) addPending(m mcp.InputRequestMap) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.pending == nil {
		cs.pending = mcp.InputRequestMap{}
	}
	maps.Copy(cs.pending, m)
}

func (cs *callState) pendingRequests() mcp.InputRequestMap {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.pending
}

// stateTTL bounds how long a client may take to answer input requests.
const stateTTL = 30 * time.Minute

// sealedState is what a requestState carries, encrypted and authenticated
// with the registry's key.
type sealedState struct {
	ID      string                     `json:"i"` // spent once presented (SpentStore)
	Tool    string                     `json:"t"`
	Args    []byte                     `json:"a"`           // argsDigest of the call's arguments
	Subject string                     `json:"s,omitempty"` // the verified caller it was issued to, if any
	Expires int64                      `json:"e"`           // Unix seconds
	Asked   []string                   `json:"k"`           // the input keys this round asked
	Answers map[string]json.RawMessage `json:"r,omitempty"` // of earlier rounds
}

func (r *Registry) aead() (cipher.AEAD, error) {
	block, err := aes.NewCipher(r.cfg.stateKey)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

func (r *Registry) sealState(tool string, args json.RawMessage, subject string, answers map[string]json.RawMessage, asked []string) (string, error) {
	plain, err := json.Marshal(sealedState{ID: rand.Text(), Tool: tool, Args: argsDigest(args), Subject: subject, Expires: time.Now().Add(stateTTL).Unix(), Asked: asked, Answers: answers})
	if err != nil {
		return "", err
	}
	g, err := r.aead()
	if err != nil {
		return "", err
	}
	nonce := make([]byte, g.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(g.Seal(nonce, nonce, plain, []byte(tool))), nil
}

// openState opens a requestState presented for a call of tool with args by
// subject (the verified caller, "" without one).
func (r *Registry) openState(state, tool string, args json.RawMessage, subject string) (sealedState, error) {
	var s sealedState
	raw, err := base64.RawURLEncoding.DecodeString(state)
	if err != nil {
		return s, errors.New("not issued by this server")
	}
	g, err := r.aead()
	if err != nil {
		return s, err
	}
	if len(raw) < g.NonceSize() {
		return s, errors.New("not issued by this server")
	}
	plain, err := g.Open(nil, raw[:g.NonceSize()], raw[g.NonceSize():], []byte(tool))
	if err != nil {
		return s, errors.New("not issued by this server, or altered")
	}
	if err := json.Unmarshal(plain, &s); err != nil {
		return s, errors.New("malformed")
	}
	if s.Tool != tool || string(s.Args) != string(argsDigest(args)) {
		return s, errors.New("issued for another call")
	}
	if s.Subject != subject {
		return s, errors.New("issued to another caller")
	}
	if time.Now().Unix() > s.Expires {
		return s, errors.New("expired")
	}
	return s, nil
}

// confirmKey is the input request key of the confirmation question.
const confirmKey = "mcpgen.confirm"
