package mcptool

import (
	"errors"
	"image"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpreflect "github.com/mcpgen/mcpgen/reflect"
)

// Text returns a text content block.
func Text(s string) *mcp.TextContent { return &mcp.TextContent{Text: s} }

// Image returns an image content block of already-encoded image bytes (PNG,
// JPEG, ...) with their MIME type.
func Image(data []byte, mimeType string) *mcp.ImageContent {
	return &mcp.ImageContent{Data: data, MIMEType: mimeType}
}

// PNG encodes img as a PNG image content block: the block a tool that
// returns an image.Image sends.
func PNG(img image.Image) (*mcp.ImageContent, error) {
	out, err := mcpreflect.DefaultCache().Output(reflect.TypeFor[image.Image](), mcpreflect.Options{})
	if err != nil {
		return nil, err
	}
	res, err := out.Result(img)
	if err != nil {
		return nil, err
	}
	if len(res.Content) != 1 {
		return nil, errors.New("mcptool: PNG of a nil image")
	}
	return res.Content[0].(*mcp.ImageContent), nil
}

// Audio returns an audio content block of encoded audio bytes (WAV, MP3, ...)
// with their MIME type.
func Audio(data []byte, mimeType string) *mcp.AudioContent {
	return &mcp.AudioContent{Data: data, MIMEType: mimeType}
}

// ResourceLink returns a link to a resource the client may read or subscribe
// to. name is the resource's programmatic name; mimeType may be empty.
func ResourceLink(uri, name, mimeType string) *mcp.ResourceLink {
	return &mcp.ResourceLink{URI: uri, Name: name, MIMEType: mimeType}
}

// EmbeddedText returns a text resource embedded in the result.
func EmbeddedText(uri, mimeType, text string) *mcp.EmbeddedResource {
	return &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: uri, MIMEType: mimeType, Text: text}}
}

// EmbeddedBlob returns a binary resource embedded in the result.
func EmbeddedBlob(uri, mimeType string, data []byte) *mcp.EmbeddedResource {
	return &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: uri, MIMEType: mimeType, Blob: data}}
}
