package mcptool_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"log/slog"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// contentWire marshals one content block and returns it as a generic object.
func contentWire(t *testing.T, c mcp.Content) map[string]any {
	t.Helper()
	return regMap(t, c)
}

// contentRoundTrip sends c as a tool result's only block and reads it back
// the way a client does.
func contentRoundTrip(t *testing.T, c mcp.Content) mcp.Content {
	t.Helper()
	var res mcp.CallToolResult
	require.NoError(t, json.Unmarshal([]byte(regMarshal(t, &mcp.CallToolResult{Content: []mcp.Content{c}})), &res))
	require.Len(t, res.Content, 1)
	return res.Content[0]
}

func TestText(t *testing.T) {
	c := mcptool.Text("hello \"world\"\n")
	assert.Equal(t, "hello \"world\"\n", c.Text)
	assert.Equal(t, map[string]any{"type": "text", "text": "hello \"world\"\n"}, contentWire(t, c))
	assert.Equal(t, map[string]any{"type": "text", "text": ""}, contentWire(t, mcptool.Text("")), "text is required, even empty")
	back, ok := contentRoundTrip(t, c).(*mcp.TextContent)
	require.True(t, ok)
	assert.Equal(t, c.Text, back.Text)
}

func TestImage(t *testing.T) {
	data := []byte{0x89, 'P', 'N', 'G', 0, 1, 2, 0xff}
	c := mcptool.Image(data, "image/png")
	assert.Equal(t, data, c.Data)
	assert.Equal(t, "image/png", c.MIMEType)
	assert.Equal(t, map[string]any{
		"type":     "image",
		"mimeType": "image/png",
		"data":     base64.StdEncoding.EncodeToString(data),
	}, contentWire(t, c))
	back, ok := contentRoundTrip(t, c).(*mcp.ImageContent)
	require.True(t, ok)
	assert.Equal(t, data, back.Data)
	assert.Equal(t, "image/png", back.MIMEType)

	assert.Equal(t, map[string]any{"type": "image", "mimeType": "image/jpeg", "data": ""},
		contentWire(t, mcptool.Image(nil, "image/jpeg")), "data and mimeType are required")
}

// TestPNG: a tool returning an image.Image sends it as one image/png block,
// the way to send an image the tool draws (there is no PNG helper).
func TestPNG(t *testing.T) {
	src := image.NewRGBA(image.Rect(-1, -1, 2, 1)) // a non-zero origin
	src.Set(-1, -1, color.RGBA{R: 255, A: 255})
	src.Set(1, 0, color.RGBA{G: 128, B: 64, A: 255})
	var logs bytes.Buffer
	r := mcptool.NewRegistry(mcptool.Logger(slog.New(slog.NewTextHandler(&logs, nil))))
	require.NoError(t, r.Add("chart", func() (image.Image, error) { return src, nil }))
	require.NoError(t, r.Add("empty", func() (image.Image, error) { return image.NewRGBA(image.Rect(0, 0, 0, 0)), nil }))

	res := regCall(t, r, "chart", "")
	require.False(t, res.IsError)
	require.Len(t, res.Content, 1)
	c, ok := res.Content[0].(*mcp.ImageContent)
	require.True(t, ok, "%T", res.Content[0])
	assert.Equal(t, "image/png", c.MIMEType)
	assert.Equal(t, "image", contentWire(t, c)["type"])

	got, err := png.Decode(bytes.NewReader(c.Data))
	require.NoError(t, err)
	assert.Equal(t, 3, got.Bounds().Dx())
	assert.Equal(t, 2, got.Bounds().Dy())
	origin := got.Bounds().Min
	for y := range 2 {
		for x := range 3 {
			want := color.RGBAModel.Convert(src.At(src.Bounds().Min.X+x, src.Bounds().Min.Y+y))
			assert.Equal(t, want, color.RGBAModel.Convert(got.At(origin.X+x, origin.Y+y)), "pixel %d,%d", x, y)
		}
	}

	// Through the wire, the data stays a valid PNG.
	back := contentRoundTrip(t, c).(*mcp.ImageContent)
	_, err = png.Decode(bytes.NewReader(back.Data))
	require.NoError(t, err)

	// An image PNG cannot encode is an internal error: masked for the
	// model, logged with the encoder's error.
	assert.Regexp(t, `^internal error \(ref [0-9a-f]{12}\)$`, regFail(t, r, "empty", ""))
	assert.Contains(t, logs.String(), "encode PNG: png: invalid format: invalid image size: 0x0")

	// The result mapping wraps the encoder's error.
	out, err := mcpreflect.DefaultCache().Output(reflect.TypeFor[image.Image](), mcpreflect.Options{})
	require.NoError(t, err)
	_, err = out.Result(image.NewRGBA(image.Rect(0, 0, 0, 0)))
	require.EqualError(t, err, "encode PNG: png: invalid format: invalid image size: 0x0")
	var fe png.FormatError
	assert.ErrorAs(t, err, &fe, "the encoder's error is wrapped")
}

func TestAudio(t *testing.T) {
	data := []byte("RIFF....WAVE")
	c := mcptool.Audio(data, "audio/wav")
	assert.Equal(t, data, c.Data)
	assert.Equal(t, "audio/wav", c.MIMEType)
	assert.Equal(t, map[string]any{
		"type":     "audio",
		"mimeType": "audio/wav",
		"data":     base64.StdEncoding.EncodeToString(data),
	}, contentWire(t, c))
	back, ok := contentRoundTrip(t, c).(*mcp.AudioContent)
	require.True(t, ok)
	assert.Equal(t, data, back.Data)
	assert.Equal(t, "audio/wav", back.MIMEType)
}

func TestResourceLink(t *testing.T) {
	c := mcptool.ResourceLink("file:///docs/readme.md", "readme", "text/markdown")
	assert.Equal(t, "file:///docs/readme.md", c.URI)
	assert.Equal(t, "readme", c.Name)
	assert.Equal(t, "text/markdown", c.MIMEType)
	assert.Equal(t, map[string]any{
		"type":     "resource_link",
		"uri":      "file:///docs/readme.md",
		"name":     "readme",
		"mimeType": "text/markdown",
	}, contentWire(t, c))
	assert.NotContains(t, contentWire(t, mcptool.ResourceLink("https://x.test/a", "a", "")), "mimeType",
		"an empty mimeType is left out")
	back, ok := contentRoundTrip(t, c).(*mcp.ResourceLink)
	require.True(t, ok)
	assert.Equal(t, c.URI, back.URI)
	assert.Equal(t, c.Name, back.Name)
}

func TestEmbeddedText(t *testing.T) {
	c := mcptool.EmbeddedText("memo://1", "text/plain", "the memo, with commas")
	require.NotNil(t, c.Resource)
	assert.Equal(t, "memo://1", c.Resource.URI)
	assert.Equal(t, "text/plain", c.Resource.MIMEType)
	assert.Equal(t, "the memo, with commas", c.Resource.Text)
	assert.Nil(t, c.Resource.Blob)
	assert.Equal(t, map[string]any{
		"type": "resource",
		"resource": map[string]any{
			"uri":      "memo://1",
			"mimeType": "text/plain",
			"text":     "the memo, with commas",
		},
	}, contentWire(t, c))
	back, ok := contentRoundTrip(t, c).(*mcp.EmbeddedResource)
	require.True(t, ok)
	assert.Equal(t, "the memo, with commas", back.Resource.Text)
}

func TestContentHelpersInResults(t *testing.T) {
	// Every helper's block survives a tool call unchanged and in order.
	blocks := []mcp.Content{
		mcptool.Text("t"),
		mcptool.Image([]byte{1}, "image/gif"),
		mcptool.Audio([]byte{2}, "audio/mpeg"),
		mcptool.ResourceLink("file:///f", "f", ""),
		mcptool.EmbeddedText("u://t", "text/plain", "x"),
		&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "u://b", Blob: []byte{3}}},
	}
	r := mcptool.NewRegistry()
	require.NoError(t, r.Add("all", func() ([]mcp.Content, error) { return blocks, nil }))
	res := regWire(t, regCall(t, r, "all", ""))
	require.Len(t, res.Content, len(blocks))
	var types []string
	for _, c := range res.Content {
		types = append(types, contentWire(t, c)["type"].(string))
	}
	assert.Equal(t, []string{"text", "image", "audio", "resource_link", "resource", "resource"}, types)
	assert.Equal(t, regMarshal(t, blocks), regMarshal(t, res.Content))
}
