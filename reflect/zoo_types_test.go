package mcpreflect

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/netip"
	"time"

	"github.com/invopop/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The zoo: argument and result types covering every feature of the
// reflection layer. Each is used by the golden tests (zoo_test.go) and the
// schema/runtime agreement test (agree_test.go).

// ZooNoArgs has no fields: its schema is exactly
// {"type":"object","additionalProperties":false}.
type ZooNoArgs struct{}

// ZooScalars covers the plain JSON kinds and the json tag's naming rules.
type ZooScalars struct {
	Name   string  `json:"name"`
	Flag   bool    `json:"flag"`
	Count  int     `json:"count"`
	Big    int64   `json:"big,omitempty"`
	Size   uint    `json:"size,omitempty"`
	Ratio  float64 `json:"ratio,omitzero"`
	Small  float32 `json:"small,omitempty"`
	GoName string  `json:",omitempty"`
	//lint:ignore SA5008 a property named "-" is what the zoo checks
	Dash     string `json:"-,omitempty"`
	Skipped  string `json:"-"`
	Untagged int
	hidden   string
}

var _ = ZooScalars{}.hidden

// ZooSizedInts: sized integers publish their bounds; a rule wider than the
// type is narrowed to the type's range.
type ZooSizedInts struct {
	I8    int8   `json:"i8"`
	I16   int16  `json:"i16"`
	I32   int32  `json:"i32"`
	U8    uint8  `json:"u8"`
	U16   uint16 `json:"u16"`
	U32   uint32 `json:"u32"`
	U64   uint64 `json:"u64,omitempty"`
	Wide  int8   `json:"wide,omitempty" validate:"max=1000"`
	Neg   uint16 `json:"neg,omitempty" jsonschema:"minimum=-5"`
	Tight int16  `json:"tight,omitempty" validate:"min=-10,max=10"`
}

// ZooPoint is a small struct used in several places.
type ZooPoint struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// ZooPointers covers pointers to scalars and structs.
type ZooPointers struct {
	S  *string     `json:"s"`
	N  *int        `json:"n,omitempty" validate:"omitempty,min=1"`
	P  *ZooPoint   `json:"p,omitempty"`
	PP **bool      `json:"pp,omitempty"`
	Ps []*ZooPoint `json:"ps,omitempty"`
}

// ZooSearch covers nested structs and slices of structs.
type ZooSearch struct {
	Query   string      `json:"query" validate:"required,min=1"`
	Filters []ZooFilter `json:"filters,omitempty" validate:"max=5,dive"`
	Page    ZooPage     `json:"page"`
}

type ZooFilter struct {
	Field string `json:"field" validate:"oneof=title body author"`
	From  int    `json:"from" validate:"gte=0"`
	To    int    `json:"to,omitempty" validate:"omitempty,gtefield=From"`
}

type ZooPage struct {
	Size   int    `json:"size,omitempty" jsonschema:"default=10" validate:"omitempty,min=1,max=100"`
	Cursor string `json:"cursor,omitempty"`
}

// ZooBase is embedded by value.
type ZooBase struct {
	ID      string `json:"id" validate:"uuid"`
	Version int    `json:"version,omitempty"`
}

// ZooAudit is embedded by pointer.
type ZooAudit struct {
	By   string `json:"by,omitempty"`
	Note string `json:"note,omitempty" validate:"omitempty,max=20"`
}

type zooHidden struct {
	Secret string `json:"secret,omitempty"`
}

// ZooEmbedded covers value, pointer and unexported embedding, a named
// (not promoted) embedded struct, and shadowing by a shallower field.
type ZooEmbedded struct {
	ZooBase
	*ZooAudit
	zooHidden
	Meta    ZooAudit `json:"meta,omitempty"`
	Version string   `json:"version,omitempty"`
}

// ZooKey is a named string map key.
type ZooKey string

// ZooMaps covers maps with string, integer and named keys, and struct and
// slice values.
type ZooMaps struct {
	Labels map[string]string   `json:"labels"`
	ByID   map[int]string      `json:"by_id,omitempty"`
	Ports  map[uint16]bool     `json:"ports,omitempty"`
	Points map[string]ZooPoint `json:"points,omitempty"`
	Groups map[string][]string `json:"groups,omitempty"`
	Named  map[ZooKey]int      `json:"named,omitempty"`
}

// ZooKind is a named string used as an enum element.
type ZooKind string

// ZooEnums covers jsonschema enum= and validate oneof= on strings, integers,
// floats and slice items, and const.
type ZooEnums struct {
	Color string    `json:"color" jsonschema:"enum=red,enum=green,enum=blue"`
	Mode  string    `json:"mode,omitempty" validate:"omitempty,oneof=fast slow 'very slow'"`
	Level int       `json:"level" jsonschema:"enum=1,enum=2,enum=3"`
	Prio  int       `json:"prio,omitempty" validate:"omitempty,oneof=10 20 30"`
	Scale float64   `json:"scale,omitempty" validate:"omitempty,oneof=0.5 1 2"`
	Tags  []string  `json:"tags,omitempty" jsonschema:"enum=a,enum=b"`
	Kinds []ZooKind `json:"kinds,omitempty" validate:"dive,oneof=x y"`
	Fixed string    `json:"fixed,omitempty" jsonschema:"const=v1"`
	On    bool      `json:"on,omitempty" jsonschema:"enum=true"`
}

// ZooTimes covers time.Time and date strings.
type ZooTimes struct {
	At    time.Time   `json:"at"`
	Until *time.Time  `json:"until,omitempty"`
	Slots []time.Time `json:"slots,omitempty" validate:"max=3"`
	Day   string      `json:"day,omitempty" validate:"omitempty,datetime=2006-01-02"`
}

// ZooRaw covers json.RawMessage, []byte, typed interfaces and netip.Addr
// (an encoding.TextUnmarshaler).
type ZooRaw struct {
	Payload json.RawMessage            `json:"payload"`
	Blob    []byte                     `json:"blob,omitempty" jsonschema:"maxLength=12"`
	Bytes   []byte                     `json:"bytes,omitempty" validate:"omitempty,max=4"`
	Extra   map[string]json.RawMessage `json:"extra,omitempty"`
	Typed   any                        `json:"typed,omitempty" jsonschema:"type=object"`
	Addr    netip.Addr                 `json:"addr,omitempty"`
}

// ZooTree is self-recursive.
type ZooTree struct {
	Value    int       `json:"value"`
	Children []ZooTree `json:"children,omitempty" validate:"max=3"`
}

// ZooList reaches a self-recursive type through a field.
type ZooList struct {
	Head *ZooNode `json:"head,omitempty"`
}

type ZooNode struct {
	Val  string   `json:"val" validate:"min=1"`
	Next *ZooNode `json:"next,omitempty"`
}

// ZooDir and ZooFile are mutually recursive.
type ZooDir struct {
	Name  string    `json:"name"`
	Files []ZooFile `json:"files,omitempty"`
}

type ZooFile struct {
	Name string  `json:"name" validate:"max=8"`
	Dir  *ZooDir `json:"dir,omitempty"`
}

type ZooFS struct {
	Root ZooDir `json:"root"`
}

// ZooColor describes itself with JSONSchema().
type ZooColor string

func (ZooColor) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Pattern: "^#[0-9a-f]{6}$", Description: "An RGB color, #rrggbb."}
}

// ZooRange is a struct sent as a two-item array; JSONSchema() says so, with
// the range of its int fields, and UnmarshalJSON reads it.
type ZooRange struct{ Lo, Hi int }

func (ZooRange) JSONSchema() *jsonschema.Schema {
	two := uint64(2)
	item := &jsonschema.Schema{Type: "integer", Minimum: "-9223372036854775808", Maximum: "9223372036854775807"}
	return &jsonschema.Schema{Type: "array", Items: item, MinItems: &two, MaxItems: &two}
}

// UnmarshalJSON accepts everything the schema accepts, 2.0 and 1e1 included:
// mcpgen checks the schema, then hands the value to UnmarshalJSON.
func (r *ZooRange) UnmarshalJSON(b []byte) error {
	var v [2]json.Number
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	var n [2]int
	for i, s := range v {
		x, ok := new(big.Rat).SetString(string(s))
		if !ok || !x.IsInt() || !x.Num().IsInt64() {
			return fmt.Errorf("%s is not an int", s)
		}
		n[i] = int(x.Num().Int64())
	}
	r.Lo, r.Hi = n[0], n[1]
	return nil
}

// ZooCustom uses types with their own JSONSchema().
type ZooCustom struct {
	Fg     ZooColor   `json:"fg"`
	Bg     *ZooColor  `json:"bg,omitempty" jsonschema:"description=Background."`
	Range  ZooRange   `json:"range,omitempty"`
	Colors []ZooColor `json:"colors,omitempty" validate:"max=2"`
}

// ZooCode refines its schema with JSONSchemaExtend.
type ZooCode string

func (ZooCode) JSONSchemaExtend(s *jsonschema.Schema) {
	s.Pattern = "^[A-Z]{3}$"
	s.Examples = []any{"EUR"}
}

// ZooExtended refines the struct schema with JSONSchemaExtend.
type ZooExtended struct {
	Name string  `json:"name,omitempty"`
	Code ZooCode `json:"code,omitempty"`
}

func (ZooExtended) JSONSchemaExtend(s *jsonschema.Schema) {
	one := uint64(1)
	s.Description = "At least one of name and code."
	s.MinProperties = &one
}

// ZooStringRules mirrors every length rule on strings.
type ZooStringRules struct {
	Req  string `json:"req" validate:"required"`
	Min  string `json:"min,omitempty" validate:"omitempty,min=2"`
	Max  string `json:"max,omitempty" validate:"max=5"`
	Len  string `json:"len,omitempty" validate:"len=3"`
	Gt   string `json:"gt,omitempty" validate:"gt=2"`
	Gte  string `json:"gte,omitempty" validate:"gte=2"`
	Lt   string `json:"lt,omitempty" validate:"lt=4"`
	Lte  string `json:"lte,omitempty" validate:"lte=4"`
	Eq   string `json:"eq,omitempty" validate:"eq=yes"`
	Both string `json:"both,omitempty" validate:"min=1,max=3"`
}

// ZooRequiredValues holds validate:"required" on each kind of value: a
// string, a []byte, a slice and a map must not be empty (minLength,
// minItems, minProperties 1), a pointer not null; a number, a bool, a
// struct and a time need only be present.
type ZooRequiredValues struct {
	Str    string            `json:"str" validate:"required"`
	Bytes  []byte            `json:"bytes" validate:"required"`
	List   []string          `json:"list" validate:"required"`
	Dict   map[string]int    `json:"dict" validate:"required"`
	Ptr    *string           `json:"ptr,omitempty" validate:"required"`
	Num    int               `json:"num,omitempty" validate:"required"`
	Flag   bool              `json:"flag" validate:"required"`
	Nested map[string]string `json:"nested"`
	Longer string            `json:"longer" validate:"required,min=3"`
	Tagged string            `json:"tagged" jsonschema:"minLength=2" validate:"required"`
	IDs    []int             `json:"ids" validate:"required,dive,min=0"`
	When   time.Time         `json:"when" validate:"required"`
}

// ZooNumberRules mirrors every bound rule on numbers.
type ZooNumberRules struct {
	Min     int     `json:"min" validate:"min=1"`
	Max     int     `json:"max,omitempty" validate:"max=10"`
	Gt      int     `json:"gt,omitempty" validate:"gt=0"`
	Gte     float64 `json:"gte,omitempty" validate:"gte=0.5"`
	Lt      float64 `json:"lt,omitempty" validate:"lt=1.5"`
	Lte     int     `json:"lte,omitempty" validate:"lte=-1"`
	Eq      int     `json:"eq,omitempty" validate:"eq=7"`
	Between int     `json:"between,omitempty" validate:"gt=0,lt=10"`
	Mult    int     `json:"mult,omitempty" jsonschema:"multipleOf=5"`
	Uint    uint    `json:"uint,omitempty" validate:"max=5"`
	F32     float32 `json:"f32,omitempty" validate:"min=-1,max=1"`
	Len     int     `json:"len,omitempty" validate:"len=3"`
	Sure    bool    `json:"sure,omitempty" validate:"eq=true"`
}

// ZooSliceRules mirrors every count rule on slices, and unique.
type ZooSliceRules struct {
	Min    []string   `json:"min" validate:"min=1"`
	Max    []int      `json:"max,omitempty" validate:"max=2"`
	Len    []int      `json:"len,omitempty" validate:"len=2"`
	Gt     []int      `json:"gt,omitempty" validate:"gt=1"`
	Gte    []int      `json:"gte,omitempty" validate:"gte=1"`
	Lt     []int      `json:"lt,omitempty" validate:"lt=3"`
	Lte    []int      `json:"lte,omitempty" validate:"lte=2"`
	Unique []string   `json:"unique,omitempty" validate:"unique"`
	Points []ZooPoint `json:"points,omitempty" validate:"unique"`
	Nums   []float64  `json:"nums,omitempty" jsonschema:"uniqueItems"`
	Arr    [3]int     `json:"arr,omitempty"`
}

// ZooMapRules mirrors every count rule on maps, and keys ... endkeys.
type ZooMapRules struct {
	Min   map[string]int    `json:"min" validate:"min=1"`
	Max   map[string]int    `json:"max,omitempty" validate:"max=2"`
	Len   map[string]int    `json:"len,omitempty" validate:"len=1"`
	Gt    map[string]int    `json:"gt,omitempty" validate:"gt=1"`
	Lt    map[string]int    `json:"lt,omitempty" validate:"lt=2"`
	Gte   map[string]int    `json:"gte,omitempty" validate:"gte=1"`
	Lte   map[string]int    `json:"lte,omitempty" validate:"lte=1"`
	Props map[string]string `json:"props,omitempty" jsonschema:"minProperties=1,maxProperties=2"`
	Keys  map[string]int    `json:"keys,omitempty" validate:"dive,keys,min=2,max=4,endkeys,min=0"`
	ByIP  map[string]string `json:"by_ip,omitempty" validate:"dive,keys,ipv4,endkeys,email"`
}

// ZooFormats mirrors every format rule.
type ZooFormats struct {
	Email    string `json:"email,omitempty" validate:"omitempty,email"`
	URL      string `json:"url,omitempty" validate:"omitempty,url"`
	URI      string `json:"uri,omitempty" validate:"omitempty,uri"`
	UUID     string `json:"uuid,omitempty" validate:"omitempty,uuid"`
	Host     string `json:"host,omitempty" validate:"omitempty,hostname_rfc1123"`
	Host952  string `json:"host952,omitempty" validate:"omitempty,hostname"`
	IPv4     string `json:"ipv4,omitempty" validate:"omitempty,ipv4"`
	IPv6     string `json:"ipv6,omitempty" validate:"omitempty,ipv6"`
	DateTime string `json:"date_time,omitempty" validate:"omitempty,datetime=2006-01-02T15:04:05Z07:00"`
	Date     string `json:"date,omitempty" validate:"omitempty,datetime=2006-01-02"`
	Clock    string `json:"clock,omitempty" jsonschema:"format=time"`
	Ref      string `json:"ref,omitempty" jsonschema:"format=uri-reference"`
}

// ZooDive covers dive, nested dive and keys ... endkeys.
type ZooDive struct {
	Names    []string       `json:"names" validate:"min=1,dive,min=2,max=10"`
	Matrix   [][]int        `json:"matrix,omitempty" validate:"dive,max=3,dive,gte=0,lte=9"`
	Scores   map[string]int `json:"scores,omitempty" validate:"dive,keys,min=1,max=8,endkeys,gte=0,lte=100"`
	Emails   []string       `json:"emails,omitempty" validate:"dive,email"`
	Ptrs     []*int         `json:"ptrs,omitempty" validate:"dive,min=1"`
	Prefixed []string       `json:"prefixed,omitempty" validate:"dive,startswith=x"`
}

// ZooResidual covers validator rules JSON Schema cannot say: they run after
// decoding.
type ZooResidual struct {
	Code    string `json:"code" validate:"startswith=AB,alphanum"`
	Pass    string `json:"pass" validate:"min=8"`
	Confirm string `json:"confirm" validate:"eqfield=Pass"`
	Mixed   string `json:"mixed,omitempty" validate:"omitempty,max=10,contains=@"`
	Either  string `json:"either,omitempty" validate:"omitempty,uuid|email"`
}

// ZooKeywords uses every key of the jsonschema tag, jsonschema_description
// and jsonschema_extras.
type ZooKeywords struct {
	Title      string            `json:"title,omitempty" jsonschema:"title=The title"`
	Desc       string            `json:"desc,omitempty" jsonschema:"description=Commas\\, escaped."`
	Typed      any               `json:"typed,omitempty" jsonschema:"type=string"`
	TypedNum   any               `json:"typed_num,omitempty" jsonschema:"type=number"`
	TypedMax   any               `json:"typed_max,omitempty" jsonschema:"type=integer,maximum=10"`
	Enum       string            `json:"enum,omitempty" jsonschema:"enum=a,enum=b"`
	Const      int               `json:"const,omitempty" jsonschema:"const=3"`
	Default    string            `json:"default,omitempty" jsonschema:"default=hello"`
	Example    int               `json:"example,omitempty" jsonschema:"example=1,example=2"`
	Deprecated string            `json:"deprecated,omitempty" jsonschema:"deprecated"`
	ReadOnly   string            `json:"read_only,omitempty" jsonschema:"readOnly"`
	WriteOnly  string            `json:"write_only,omitempty" jsonschema:"writeOnly=true"`
	Required   string            `json:"required,omitempty" jsonschema:"required"`
	Minimum    int               `json:"minimum,omitempty" jsonschema:"minimum=-3"`
	Maximum    float64           `json:"maximum,omitempty" jsonschema:"maximum=2.5"`
	ExMin      int               `json:"ex_min,omitempty" jsonschema:"exclusiveMinimum=0"`
	ExMax      float64           `json:"ex_max,omitempty" jsonschema:"exclusiveMaximum=1"`
	MultipleOf float64           `json:"multiple_of,omitempty" jsonschema:"multipleOf=0.25"`
	MinLength  string            `json:"min_length,omitempty" jsonschema:"minLength=2"`
	MaxLength  string            `json:"max_length,omitempty" jsonschema:"maxLength=4"`
	Pattern    string            `json:"pattern,omitempty" jsonschema:"pattern=^[a-z]{2\\,4}$"`
	Format     string            `json:"format,omitempty" jsonschema:"format=email"`
	Encoded    string            `json:"encoded,omitempty" jsonschema:"contentEncoding=base64,contentMediaType=application/json"`
	MinItems   []int             `json:"min_items,omitempty" jsonschema:"minItems=1"`
	MaxItems   []int             `json:"max_items,omitempty" jsonschema:"maxItems=2"`
	Unique     []string          `json:"unique,omitempty" jsonschema:"uniqueItems"`
	ItemsFmt   []string          `json:"items_fmt,omitempty" jsonschema:"pattern=^1,format=uuid"`
	MinProps   map[string]int    `json:"min_props,omitempty" jsonschema:"minProperties=1"`
	MaxProps   map[string]string `json:"max_props,omitempty" jsonschema:"maxProperties=1"`
	DescTag    string            `json:"desc_tag,omitempty" jsonschema_description:"Set by jsonschema_description."`
	Extras     string            `json:"extras,omitempty" jsonschema_extras:"x-order=1,x-group=main"`
	Region     string            `json:"region,omitempty" jsonschema_extras:"x-mcp-header=Region"`
	ExArr      []string          `json:"ex_arr,omitempty" jsonschema:"example=a,example=b"`
}

// ZooDefaults covers defaults and examples of every kind.
type ZooDefaults struct {
	Name   string    `json:"name,omitempty" jsonschema:"default=anon,example=alice"`
	Limit  int       `json:"limit,omitempty" jsonschema:"default=20,minimum=1,maximum=100"`
	Ratio  float64   `json:"ratio,omitempty" jsonschema:"default=0.5"`
	Strict bool      `json:"strict,omitempty" jsonschema:"default=true"`
	Tags   []string  `json:"tags,omitempty" jsonschema:"default=a,default=b"`
	Mode   string    `json:"mode,omitempty" jsonschema:"default=fast" validate:"omitempty,oneof=fast slow"`
	Since  time.Time `json:"since,omitzero" jsonschema:"default=2024-01-02T03:04:05Z"`
	Old    string    `json:"old,omitempty" jsonschema:"deprecated,example=x"`
}

// ZooHintsReadOnly carries tool metadata: a title with a comma, readOnly,
// openWorld=false.
type ZooHintsReadOnly struct {
	_ struct{} `mcp:"title='Read, only',readOnly,openWorld=false"`
	Q string   `json:"q"`
}

// ZooHintsWrite sets destructive, idempotent and a bare openWorld.
type ZooHintsWrite struct {
	_  struct{} `mcp:"title=Delete,destructive,idempotent,openWorld"`
	ID string   `json:"id"`
}

// ZooHintsSafe sets destructive=false and idempotent=false explicitly.
type ZooHintsSafe struct {
	_ struct{} `mcp:"destructive=false,idempotent=false"`
}

// ZooArrays covers fixed-size arrays and slices of slices.
type ZooArrays struct {
	Triple [3]int     `json:"triple"`
	Grid   [][]string `json:"grid,omitempty"`
	Pairs  [][2]bool  `json:"pairs,omitempty"`
}

// Output types.

type ZooResult struct {
	ID      string            `json:"id"`
	Score   float64           `json:"score"`
	Note    *string           `json:"note,omitempty"`
	Tags    []string          `json:"tags"`
	Attrs   map[string]string `json:"attrs,omitempty"`
	When    time.Time         `json:"when"`
	Payload json.RawMessage   `json:"payload,omitempty"`
	Any     any               `json:"any,omitempty"`
	Parent  *ZooPoint         `json:"parent"`
}

// ZooText is a string result type: one text block, no output schema.
type ZooText string

// zooContents is a slice of one content type.
type zooContents []*mcp.TextContent
