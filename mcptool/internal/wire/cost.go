package wire

// Cost is what a body holds, counted by [Scan] as it reads it.
type Cost struct {
	Values     int // JSON values: scalars, objects and arrays
	Containers int // objects and arrays
	Keys       int // object members
	MaxDepth   int // deepest nesting of objects and arrays (0: none)
	Bytes      int // the body's length
}

// What decoding costs, in bytes allocated, per kind of thing a body holds:
// measured by TestChargeCoversDecoding (mcptool), which serves bodies of
// each shape through Server.Handler, statelessly and in a 2025-11-25
// session, and checks that Charge is no less than the heap they allocate.
// The decoders that see a body copy it a few times (go-sdk reads each
// message twice, and keeps the raw params), and turn a _meta, and a
// params member that it does not know, into map[string]any and []any: a
// value boxed in an interface, an object in a map, an array in a slice
// grown by doubling, a key in a string.
const (
	costPerByte      = 50
	costPerValue     = 256
	costPerContainer = 800
	costPerKey       = 416
)

// Charge is what decoding a body of this cost may allocate, in bytes, by
// the most expensive decoder that may see it: the bytes to reserve for it
// in the in-flight budget while it is served.
func (c Cost) Charge() int64 {
	return int64(c.Bytes)*costPerByte + int64(c.Values)*costPerValue +
		int64(c.Containers)*costPerContainer + int64(c.Keys)*costPerKey
}
