//lint:file-ignore SA1019 the conformance suite exercises sampling, roots and logging, deprecated by the 2026-07-28 revision (SEP-2577) but still in the protocol.

package server

// The conformance toolset: the fixture tools the MCP conformance suite
// (@modelcontextprotocol/conformance) calls, each written as an ordinary
// mcpgen tool. .ci/conformance.sh runs the suite against
//
//	mcpgen-demo -toolset conformance -http 127.0.0.1:PORT
//
// The fixtures mutate the registry (test_trigger_tool_change), so they live in
// a toolset of their own.

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/invopop/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpgen/mcpgen/mcptool"
)

// conformanceServer registers the conformance fixtures on reg and returns the
// server that serves them.
func conformanceServer(reg *mcptool.Registry, impl *mcp.Implementation, logger *slog.Logger) (*mcptool.Server, error) {
	if err := registerConformance(reg); err != nil {
		return nil, err
	}
	return reg.Server(impl, &mcp.ServerOptions{
		Logger:       logger,
		Instructions: "MCP conformance fixtures served by mcpgen.",
		Capabilities: &mcp.ServerCapabilities{
			Tools:   &mcp.ToolCapabilities{ListChanged: true},
			Logging: &mcp.LoggingCapabilities{},
			// go-sdk answers prompts/list (with an empty list) even with no
			// prompts, and the 2026-07-28 server-stateless scenario then
			// requires the capability to be declared. No listChanged: the
			// prompt list never changes.
			Prompts: &mcp.PromptCapabilities{},
		},
	}), nil
}

// registerConformance adds every fixture tool to reg.
func registerConformance(reg *mcptool.Registry) error {
	var errs []error
	check := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	add := func(name string, fn any, description string, opts ...mcptool.Option) {
		check(reg.Add(name, fn, append(opts, mcptool.Description(description))...))
	}
	// Most fixtures only read (the annotations' default is a destructive tool).
	ro := mcptool.ReadOnly(true)

	// Content of every kind (tools-call-*).
	add("test_simple_text", simpleText, "Returns a fixed text block.", ro)
	add("test_image_content", imageContent, "Returns a 1x1 red PNG image, encoded by mcpgen from an image.Image.", ro)
	add("test_audio_content", audioContent, "Returns a short silent WAV clip as audio content.", ro)
	add("test_embedded_resource", embeddedResource, "Returns an embedded text resource (test://embedded-resource).", ro)
	add("test_multiple_content_types", multipleContent, "Returns text, an image and an embedded resource in one result.", ro)
	add("test_error_handling", failing, "Always fails: its error becomes a result with isError set and the error's text.", ro)

	// Notifications during a call.
	add("test_tool_with_logging", withLogging, "Logs three info messages, 50 ms apart, through the client's log level, then returns.", ro)
	add("test_tool_with_progress", withProgress, "Reports progress 0, 50 and 100 of 100 when the call carries a progress token, and returns the token.", ro)
	add("test_logging_tool", logOnce, "Logs one info message; on 2026-07-28 requests it reaches the client only if the request set a log level.", ro)
	add("test_reconnection", reconnection, "Closes the call's SSE stream mid-call (SEP-1699) so the client reconnects, then returns.", ro)

	// Input from the client: one call site for both protocol eras (blocking
	// requests on 2025-era sessions, input-required results on 2026-07-28).
	check(mcptool.Add(reg, "test_sampling", sampling, mcptool.Description("Asks the client's model to complete the prompt (sampling) and returns its answer.")))
	check(mcptool.Add(reg, "test_elicitation", elicitation, mcptool.Description("Asks the user for a username (elicitation) with the given message, and reports the answer.")))
	add("test_elicitation_sep1034_defaults", elicitDefaults, "Elicits primitives that carry default values (SEP-1034), and reports the answer.", ro)
	add("test_elicitation_sep1330_enums", elicitEnums, "Elicits the five enum shapes of SEP-1330, and reports the answer.", ro)
	add("test_input_required_result_elicitation", askName, "Asks for the caller's name (elicitation under key user_name) and greets them.", ro)
	add("test_input_required_result_sampling", askCapital, "Asks the client's model for the capital of France (sampling under key capital_question).", ro)
	add("test_input_required_result_list_roots", askRoots, "Asks the client for its roots (roots/list under key client_roots) and lists them.", ro)
	add("test_input_required_result_request_state", askConfirm, "Asks for a confirmation; the answer comes back with mcpgen's sealed requestState, and the result says state-ok.", ro)
	add("test_input_required_result_multiple_inputs", askAll, "Asks for a name, a model greeting and the client's roots in one round.", ro)
	add("test_input_required_result_multi_round", askTwice, "Asks for a name, then for a favourite colour, in two rounds.", ro)
	add("test_input_required_result_tampered_state", askConfirmTamper, "Asks for a confirmation; a requestState altered by the client is rejected with invalid params.", ro)
	add("test_input_required_result_capabilities", askByCapability, "Asks only for the kinds of input the client declared capabilities for.", ro)

	// Schemas.
	add("json_schema_2020_12_tool", contact, "Records a contact. Its input schema shows JSON Schema 2020-12 features: $schema, $defs with $anchor, allOf/anyOf, if/then/else (SEP-1613, SEP-2106).",
		mcptool.KeepDefs(), mcptool.DeclareDialect())
	add("test_x_mcp_header", region, "Echoes the region, which clients mirror into the Mcp-Param-Region header (SEP-2243).")

	// Stateless-protocol diagnostics (server-stateless, SEP-2575).
	add("test_missing_capability", requireSampling, "Needs the client's sampling capability: without it the call fails with -32021 naming the capability.", ro)
	add("test_streaming_elicitation", streamingElicitation, "Returns a plain result and never sends the client a request on the response stream.", ro)
	add("test_trigger_tool_change", triggerToolChange(reg), "Removes and re-adds a transient tool, so clients get notifications/tools/list_changed.",
		mcptool.Destructive(false), mcptool.Idempotent(true), mcptool.OpenWorld(false))

	// Tasks (tasks-*, SEP-2663).
	check(registerTaskFixtures(reg))

	return errors.Join(errs...)
}

// Content of every kind.

// Base64 fixtures of the suite: a 1x1 PNG and a silent WAV.
const (
	pngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
	wavBase64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="
)

func mustDecode(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

var (
	pngBytes = mustDecode(pngBase64)
	wavBytes = mustDecode(wavBase64)
)

func simpleText() (string, error) { return "This is a simple text response for testing.", nil }

func imageContent() (image.Image, error) {
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	return img, nil
}

func audioContent() (*mcp.AudioContent, error) { return mcptool.Audio(wavBytes, "audio/wav"), nil }

func embeddedResource() (*mcp.EmbeddedResource, error) {
	return mcptool.EmbeddedText("test://embedded-resource", "text/plain", "This is an embedded resource"), nil
}

func multipleContent() ([]mcp.Content, error) {
	return []mcp.Content{
		mcptool.Text("This is text content"),
		mcptool.Image(pngBytes, "image/png"),
		mcptool.EmbeddedText("test://embedded-in-multiple", "text/plain", "This is an embedded resource"),
	}, nil
}

// failing returns an error meant for the model (mcptool.Errorf): plain errors
// are internal, and reach the client only as a reference ID.
func failing() error {
	return mcptool.Errorf("this tool intentionally returns an error for testing")
}

// Notifications during a call.

func withLogging(ctx context.Context) (string, error) {
	log := mcptool.Log(ctx)
	for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
		if i > 0 {
			if err := sleep(ctx, 50*time.Millisecond); err != nil {
				return "", err
			}
		}
		log.Info(msg)
	}
	return "Tool with logging executed successfully", nil
}

func withProgress(ctx context.Context) (string, error) {
	for i, p := range []float64{0, 50, 100} {
		if i > 0 {
			if err := sleep(ctx, 50*time.Millisecond); err != nil {
				return "", err
			}
		}
		mcptool.Progress(ctx, p, 100, fmt.Sprintf("Completed step %.0f of 100", p))
	}
	var token any
	if req := mcptool.Request(ctx); req != nil {
		token = req.Params.GetProgressToken()
	}
	return fmt.Sprint(token), nil
}

func logOnce(ctx context.Context) (string, error) {
	mcptool.Log(ctx).Info("test_logging_tool executed")
	return "Log attempted; it reaches the client only at the level it asked for.", nil
}

func reconnection(ctx context.Context) (string, error) {
	if req := mcptool.Request(ctx); req != nil && req.Extra != nil && req.Extra.CloseSSEStream != nil {
		req.Extra.CloseSSEStream(mcp.CloseSSEStreamArgs{RetryAfter: 10 * time.Millisecond})
	}
	if err := sleep(ctx, 100*time.Millisecond); err != nil {
		return "", err
	}
	return "Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.", nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Input from the client.

// SamplingArgs are the arguments of test_sampling.
type SamplingArgs struct {
	_      struct{} `mcp:"title=Ask the client's model,readOnly"`
	Prompt string   `json:"prompt" jsonschema_description:"The prompt to send to the client's model" validate:"required"`
}

func sampling(ctx context.Context, in SamplingArgs) (string, error) {
	res, err := mcptool.Sample(ctx, "completion", &mcp.CreateMessageParams{
		Messages:  []*mcp.SamplingMessage{{Role: "user", Content: mcptool.Text(in.Prompt)}},
		MaxTokens: 100,
	})
	if err != nil {
		return "", err
	}
	return "LLM response: " + responseText(res), nil
}

// ElicitationArgs are the arguments of test_elicitation.
type ElicitationArgs struct {
	_       struct{} `mcp:"title=Ask the user for a username,readOnly"`
	Message string   `json:"message" jsonschema_description:"The message to show the user" validate:"required"`
}

func elicitation(ctx context.Context, in ElicitationArgs) (string, error) {
	res, err := mcptool.Elicit(ctx, "username", &mcp.ElicitParams{
		Message: in.Message,
		RequestedSchema: json.RawMessage(`{"type":"object",
			"properties":{"username":{"type":"string","description":"Your preferred username"}},
			"required":["username"]}`),
	})
	if err != nil {
		return "", err
	}
	return elicitationReport(res), nil
}

// sep1034Schema asks for primitives with defaults (SEP-1034).
var sep1034Schema = json.RawMessage(`{"type":"object","properties":{
	"name":{"type":"string","description":"User name","default":"John Doe"},
	"age":{"type":"integer","description":"User age","default":30},
	"score":{"type":"number","description":"User score","default":95.5},
	"status":{"type":"string","description":"User status","enum":["active","inactive","pending"],"default":"active"},
	"verified":{"type":"boolean","description":"Verification status","default":true}}}`)

func elicitDefaults(ctx context.Context) (string, error) {
	res, err := mcptool.Elicit(ctx, "defaults", &mcp.ElicitParams{Message: "Test defaults for primitives", RequestedSchema: sep1034Schema})
	if err != nil {
		return "", err
	}
	return elicitationReport(res), nil
}

// sep1330Schema asks for the five enum shapes of SEP-1330.
var sep1330Schema = json.RawMessage(`{"type":"object","properties":{
	"untitledSingle":{"type":"string","enum":["option1","option2","option3"]},
	"titledSingle":{"type":"string","oneOf":[
		{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},{"const":"value3","title":"Third Option"}]},
	"legacyEnum":{"type":"string","enum":["opt1","opt2","opt3"],"enumNames":["Option One","Option Two","Option Three"]},
	"untitledMulti":{"type":"array","minItems":1,"maxItems":3,"items":{"type":"string","enum":["option1","option2","option3"]}},
	"titledMulti":{"type":"array","minItems":1,"maxItems":3,"items":{"anyOf":[
		{"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},{"const":"value3","title":"Third Option"}]}}}}`)

func elicitEnums(ctx context.Context) (string, error) {
	res, err := mcptool.Elicit(ctx, "enums", &mcp.ElicitParams{Message: "Test enum schemas", RequestedSchema: sep1330Schema})
	if err != nil {
		return "", err
	}
	return elicitationReport(res), nil
}

func elicitationReport(res *mcp.ElicitResult) string {
	return fmt.Sprintf("Elicitation result: action=%s, content=%v", res.Action, res.Content)
}

// responseText is the text of a sampling answer's first text block.
func responseText(res *mcp.CreateMessageWithToolsResult) string {
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok && t.Text != "" {
			return t.Text
		}
	}
	return "(non-text response)"
}

// oneString is an elicitation schema asking for one required string.
func oneString(prop string) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{%q:{"type":"string"}},"required":[%q]}`, prop, prop))
}

var (
	nameRequest    = &mcp.ElicitParams{Message: "What is your name?", RequestedSchema: oneString("name")}
	confirmRequest = &mcp.ElicitParams{Message: "Please confirm", RequestedSchema: json.RawMessage(
		`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`)}
)

func sampleRequest(prompt string, maxTokens int64) *mcp.CreateMessageParams {
	return &mcp.CreateMessageParams{
		Messages:  []*mcp.SamplingMessage{{Role: "user", Content: mcptool.Text(prompt)}},
		MaxTokens: maxTokens,
	}
}

// accepted returns the string prop of an accepted elicitation.
func accepted(res *mcp.ElicitResult, prop string) (string, bool) {
	if res == nil || res.Action != "accept" {
		return "", false
	}
	s, ok := res.Content[prop].(string)
	return s, ok
}

func askName(ctx context.Context) (string, error) {
	res, err := mcptool.Elicit(ctx, "user_name", nameRequest)
	if err != nil {
		return "", err
	}
	name, ok := accepted(res, "name")
	if !ok {
		return "No name given (" + string(res.Action) + ").", nil
	}
	return fmt.Sprintf("Hello, %s!", name), nil
}

func askCapital(ctx context.Context) (string, error) {
	res, err := mcptool.Sample(ctx, "capital_question", sampleRequest("What is the capital of France?", 100))
	if err != nil {
		return "", err
	}
	return "Sampling response: " + responseText(res), nil
}

func askRoots(ctx context.Context) (string, error) {
	res, err := mcptool.ListRoots(ctx, "client_roots")
	if err != nil {
		return "", err
	}
	return rootsReport(res), nil
}

func rootsReport(res *mcp.ListRootsResult) string {
	uris := make([]string, len(res.Roots))
	for i, r := range res.Roots {
		uris[i] = r.URI
	}
	return fmt.Sprintf("Client exposed %d root(s): %s", len(res.Roots), strings.Join(uris, ", "))
}

func askConfirm(ctx context.Context) (string, error) {
	res, err := mcptool.Elicit(ctx, "confirm", confirmRequest)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("state-ok: confirmation %s", res.Action), nil
}

// askConfirmTamper is askConfirm under another name: mcpgen itself rejects a
// requestState that fails its AES-GCM check, before the tool runs.
func askConfirmTamper(ctx context.Context) (string, error) { return askConfirm(ctx) }

func askAll(ctx context.Context) (string, error) {
	out, err := mcptool.Ask(ctx, mcp.InputRequestMap{
		"user_name":    nameRequest,
		"greeting":     sampleRequest("Generate a greeting", 50),
		"client_roots": &mcp.ListRootsParams{},
	})
	if err != nil {
		return "", err
	}
	name, _ := accepted(out["user_name"].(*mcp.ElicitResult), "name")
	greeting := responseText(out["greeting"].(*mcp.CreateMessageWithToolsResult))
	roots := out["client_roots"].(*mcp.ListRootsResult)
	return fmt.Sprintf("%s %s: %d root(s) visible", greeting, name, len(roots.Roots)), nil
}

func askTwice(ctx context.Context) (string, error) {
	first, err := mcptool.Elicit(ctx, "step1", &mcp.ElicitParams{Message: "Step 1: What is your name?", RequestedSchema: oneString("name")})
	if err != nil {
		return "", err
	}
	second, err := mcptool.Elicit(ctx, "step2", &mcp.ElicitParams{Message: "Step 2: What is your favorite color?", RequestedSchema: oneString("color")})
	if err != nil {
		return "", err
	}
	name, _ := accepted(first, "name")
	color, _ := accepted(second, "color")
	return fmt.Sprintf("Multi-round complete: %s likes %s", orUnknown(name), orUnknown(color)), nil
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func askByCapability(ctx context.Context) (string, error) {
	var caps *mcp.ClientCapabilities
	if req := mcptool.Request(ctx); req != nil {
		caps = req.ClientCapabilities()
	}
	reqs := mcp.InputRequestMap{}
	if caps != nil && caps.Elicitation != nil {
		reqs["user_name"] = nameRequest
	}
	if caps != nil && caps.Sampling != nil {
		reqs["greeting"] = sampleRequest("Generate a short greeting", 50)
	}
	if caps != nil && (caps.RootsV2 != nil || caps.Roots.ListChanged) {
		reqs["client_roots"] = &mcp.ListRootsParams{}
	}
	if len(reqs) == 0 {
		return "No declared client capability supports an input request.", nil
	}
	out, err := mcptool.Ask(ctx, reqs)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Capability-aware input requests fulfilled (%d).", len(out)), nil
}

// Schemas.

// address is a postal address: a street and a city.
type address struct {
	Street string `json:"street,omitempty"`
	City   string `json:"city,omitempty"`
}

// JSONSchemaExtend names the address schema with an $anchor.
func (address) JSONSchemaExtend(s *jsonschema.Schema) { s.Anchor = "addressDef" }

// ContactArgs are the arguments of json_schema_2020_12_tool.
type ContactArgs struct {
	_             struct{} `mcp:"title=Record a contact,idempotent,destructive=false,openWorld=false"`
	Name          string   `json:"name,omitempty"`
	Address       *address `json:"address,omitempty"`
	ContactMethod string   `json:"contactMethod,omitempty" jsonschema:"enum=phone,enum=email"`
	Phone         string   `json:"phone,omitempty"`
	Email         string   `json:"email,omitempty"`
}

// JSONSchemaExtend adds the rules a struct cannot say: a phone or an email
// must be given, and the one contactMethod names.
func (ContactArgs) JSONSchemaExtend(s *jsonschema.Schema) {
	required := func(p string) *jsonschema.Schema { return &jsonschema.Schema{Required: []string{p}} }
	s.AllOf = []*jsonschema.Schema{{AnyOf: []*jsonschema.Schema{required("phone"), required("email")}}}
	byPhone := jsonschema.NewProperties()
	byPhone.Set("contactMethod", &jsonschema.Schema{Const: "phone"})
	s.If = &jsonschema.Schema{Properties: byPhone, Required: []string{"contactMethod"}}
	s.Then = required("phone")
	s.Else = required("email")
}

func contact(in ContactArgs) (string, error) {
	b, err := json.Marshal(in)
	if err != nil {
		return "", err
	}
	return "JSON Schema 2020-12 tool called with: " + string(b), nil
}

// RegionArgs are the arguments of test_x_mcp_header.
type RegionArgs struct {
	_      struct{} `mcp:"readOnly"`
	Region string   `json:"region,omitempty" jsonschema_description:"The region; clients mirror it into the Mcp-Param-Region header" jsonschema_extras:"x-mcp-header=Region"`
	Level  int      `json:"level,omitempty" jsonschema_description:"A level, not mirrored into a header"`
}

func region(in RegionArgs) (string, error) { return "region=" + in.Region, nil }

// Stateless-protocol diagnostics.

func requireSampling(ctx context.Context) (string, error) {
	if req := mcptool.Request(ctx); req != nil {
		if caps := req.ClientCapabilities(); caps != nil && caps.Sampling != nil {
			return "Client declared the sampling capability; tool executed.", nil
		}
	}
	// The data is written out: marshaling mcp.MissingRequiredClientCapabilityData
	// would also name roots, as mcp.ClientCapabilities always has a roots field.
	return "", fmt.Errorf("test_missing_capability: %w", &jsonrpc.Error{
		Code:    mcp.CodeMissingRequiredClientCapabilities,
		Message: "sampling capability required but not declared by client",
		Data:    json.RawMessage(`{"requiredCapabilities":{"sampling":{}}}`),
	})
}

func streamingElicitation() (string, error) {
	return "stream observed: result frames only, no top-level requests", nil
}

// transientTool is the tool test_trigger_tool_change removes and adds again.
const transientTool = "test_transient_tool"

func triggerToolChange(reg *mcptool.Registry) func(context.Context) (string, error) {
	var mu sync.Mutex
	return func(ctx context.Context) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		reg.Remove(transientTool)
		err := reg.Add(transientTool, func() (string, error) { return "transient", nil },
			mcptool.Description("A tool test_trigger_tool_change removes and adds again to change the tool list."))
		if err != nil {
			return "", err
		}
		return "tools_list_changed published", nil
	}
}
