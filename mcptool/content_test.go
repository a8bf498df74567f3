package mcptool_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/mcpgen/mcpgen/mcptool"
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

func TestPNG(t *testing.T) {
	src := image.NewRGBA(image.Rect(-1, -1, 2, 1)) // a non-zero origin
	src.Set(-1, -1, color.RGBA{R: 255, A: 255})
	src.Set(1, 0, color.RGBA{G: 128, B: 64, A: 255})
	c, err := mcptool.PNG(src)
	require.NoError(t, err)
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

	// An image PNG cannot encode is an error.
	_, err = mcptool.PNG(image.NewRGBA(image.Rect(0, 0, 0, 0)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "encode PNG")
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

func TestEmbeddedBlob(t *testing.T) {
	data := []byte{0, 1, 2, 254, 255}
	c := mcptool.EmbeddedBlob("blob://x", "application/octet-stream", data)
	require.NotNil(t, c.Resource)
	assert.Equal(t, data, c.Resource.Blob)
	assert.Empty(t, c.Resource.Text)
	assert.Equal(t, map[string]any{
		"type": "resource",
		"resource": map[string]any{
			"uri":      "blob://x",
			"mimeType": "application/octet-stream",
			"blob":     base64.StdEncoding.EncodeToString(data),
		},
	}, contentWire(t, c))
	back, ok := contentRoundTrip(t, c).(*mcp.EmbeddedResource)
	require.True(t, ok)
	assert.Equal(t, data, back.Resource.Blob)
}

func TestContentHelpersInResults(t *testing.T) {
	// Every helper's block survives a tool call unchanged and in order.
	img, err := mcptool.PNG(image.NewGray(image.Rect(0, 0, 1, 1)))
	require.NoError(t, err)
	blocks := []mcp.Content{
		mcptool.Text("t"),
		mcptool.Image([]byte{1}, "image/gif"),
		img,
		mcptool.Audio([]byte{2}, "audio/mpeg"),
		mcptool.ResourceLink("file:///f", "f", ""),
		mcptool.EmbeddedText("u://t", "text/plain", "x"),
		mcptool.EmbeddedBlob("u://b", "", []byte{3}),
	}
	r := mcptool.NewRegistry()
	require.NoError(t, r.Add("all", func() ([]mcp.Content, error) { return blocks, nil }))
	res := regWire(t, regCall(t, r, "all", ""))
	require.Len(t, res.Content, len(blocks))
	var types []string
	for _, c := range res.Content {
		types = append(types, contentWire(t, c)["type"].(string))
	}
	assert.Equal(t, []string{"text", "image", "image", "audio", "resource_link", "resource", "resource"}, types)
	assert.Equal(t, regMarshal(t, blocks), regMarshal(t, res.Content))
}
