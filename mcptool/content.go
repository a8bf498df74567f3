package mcptool

import "github.com/modelcontextprotocol/go-sdk/mcp"

// Text returns a text content block.
func Text(s string) *mcp.TextContent { return &mcp.TextContent{Text: s} }

// Image returns an image content block of already-encoded image bytes (PNG,
// JPEG, ...) with their MIME type. A tool returning an [image.Image] gets an
// image/png block without it.
func Image(data []byte, mimeType string) *mcp.ImageContent {
	return &mcp.ImageContent{Data: data, MIMEType: mimeType}
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
