package mcpreflect

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/annotations"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	sjs "github.com/santhosh-tekuri/jsonschema/v6"
)

var update = flag.Bool("update", false, "rewrite golden files")

// zooEntry is one tool of the zoo: an argument type, a result type, or both.
type zooEntry struct {
	name string
	in   reflect.Type // argument type; nil for an entry that only has a result
	out  reflect.Type // result type; nil when the entry has none
	// noOut marks an entry whose result type is "none" (the function returns
	// only error); out is nil then too.
	noOut bool
	opts  Options
	// refs: the schema may use $ref/$defs (recursive types, KeepDefs).
	refs bool

	// valid documents are accepted by both the schema and Decode. The first
	// one is the base of the generated mutations.
	valid []string
	// invalid documents are rejected by Decode with a violation at path for
	// rule; the schema rejects them too unless rule is in runtimeOnly.
	invalid []zooCase
	// runtimeOnly lists the rules the published schema cannot say: Decode may
	// reject a document the schema accepts only with these rules.
	runtimeOnly []string
	// opaque lists argument paths whose values are checked by a full JSON
	// Schema validator (JSONSchema() types, typed interfaces, extended
	// structs): their violations name the keyword that failed inside them.
	opaque []string
}

type zooCase struct {
	doc  string
	path string
	rule string
}

func tf[T any]() reflect.Type { return reflect.TypeFor[T]() }

var zoo = []zooEntry{
	{
		name:  "no_args",
		in:    tf[ZooNoArgs](),
		valid: []string{`{}`, ` { } `},
		invalid: []zooCase{
			{`{"x":1}`, "x", "additionalProperties"},
			{`[]`, "", "type"},
		},
	},
	{
		name: "scalars",
		in:   tf[ZooScalars](),
		valid: []string{
			`{"name":"a","flag":false,"count":0,"big":-5,"size":3,"ratio":0.5,"small":1.5,"GoName":"g","-":"dash","Untagged":1}`,
			`{"name":"","flag":true,"count":0,"Untagged":0}`,
			`{"name":"x","flag":false,"count":1.0,"Untagged":2e0,"big":-1E2}`,
		},
		invalid: []zooCase{
			{`{"name":"a","flag":false,"count":1.5,"Untagged":0}`, "count", "type"},
			{`{"name":null,"flag":false,"count":1,"Untagged":0}`, "name", "type"},
			{`{"name":"a","flag":"false","count":1,"Untagged":0}`, "flag", "type"},
			{`{"name":"a","flag":false,"count":1,"Untagged":0,"Skipped":"x"}`, "Skipped", "additionalProperties"},
			{`{"name":"a","flag":false,"count":1,"Untagged":0,"hidden":"x"}`, "hidden", "additionalProperties"},
			{`{"name":"a","flag":false,"count":1,"Untagged":0,"size":-1}`, "size", "minimum"},
			{`{"name":"a","flag":false,"count":1}`, "Untagged", "required"},
		},
	},
	{
		name: "sized_ints",
		in:   tf[ZooSizedInts](),
		valid: []string{
			`{"i8":-128,"i16":32767,"i32":-2147483648,"u8":255,"u16":0,"u32":4294967295,"u64":18446744073709551615,"wide":127,"neg":0,"tight":-10}`,
			`{"i8":127,"i16":-32768,"i32":2147483647,"u8":0,"u16":65535,"u32":0}`,
		},
		invalid: []zooCase{
			{`{"i8":128,"i16":0,"i32":0,"u8":0,"u16":0,"u32":0}`, "i8", "maximum"},
			{`{"i8":0,"i16":0,"i32":0,"u8":-1,"u16":0,"u32":0}`, "u8", "minimum"},
			{`{"i8":0,"i16":0,"i32":0,"u8":0,"u16":0,"u32":4294967296}`, "u32", "maximum"},
			{`{"i8":0,"i16":0,"i32":0,"u8":0,"u16":0,"u32":0,"wide":128}`, "wide", "maximum"},
			{`{"i8":0,"i16":0,"i32":0,"u8":0,"u16":0,"u32":0,"neg":-1}`, "neg", "minimum"},
			{`{"i8":0,"i16":0,"i32":0,"u8":0,"u16":0,"u32":0,"tight":11}`, "tight", "maximum"},
		},
	},
	{
		name: "pointers",
		in:   tf[ZooPointers](),
		valid: []string{
			`{"s":"x","n":2,"p":{"x":1,"y":2},"pp":true,"ps":[{"x":0,"y":0}]}`,
			`{"s":""}`,
		},
		invalid: []zooCase{
			{`{"s":null}`, "s", "type"},
			{`{"s":"x","n":0}`, "n", "minimum"},
			{`{"s":"x","ps":[null]}`, "ps[0]", "type"},
			{`{"s":"x","p":{"x":1}}`, "p.y", "required"},
			{`{"s":"x","pp":null}`, "pp", "type"},
		},
	},
	{
		name: "nested",
		in:   tf[ZooSearch](),
		valid: []string{
			`{"query":"q","filters":[{"field":"title","from":0},{"field":"body","from":1,"to":2},{"field":"author","from":2,"to":3}],"page":{"size":5,"cursor":"c"}}`,
			`{"query":"q","page":{}}`,
		},
		invalid: []zooCase{
			{`{"query":"q","filters":[{"field":"title","from":0},{"field":"body","from":1},{"field":"author","from":-1}],"page":{}}`, "filters[2].from", "minimum"},
			{`{"query":"q","filters":[{"field":"title","from":0},{"field":"body","from":1},{"field":"author","from":5,"to":4}],"page":{}}`, "filters[2].to", "gtefield"},
			{`{"query":"q","filters":[{"field":"nope","from":0}],"page":{}}`, "filters[0].field", "enum"},
			{`{"query":"q"}`, "page", "required"},
			{`{"query":"","page":{}}`, "query", "minLength"},
			{`{"query":"q","page":{"size":0}}`, "page.size", "minimum"},
			{`{"query":"q","page":{"size":"1"}}`, "page.size", "type"},
		},
		runtimeOnly: []string{"gtefield"},
	},
	{
		name: "embedded",
		in:   tf[ZooEmbedded](),
		valid: []string{
			`{"id":"123e4567-e89b-12d3-a456-426614174000","version":"v2","by":"me","note":"n","secret":"s","meta":{"by":"x"}}`,
			`{"id":"123e4567-e89b-12d3-a456-426614174000"}`,
		},
		invalid: []zooCase{
			{`{"id":"nope"}`, "id", "format"},
			{`{"id":"123e4567-e89b-12d3-a456-426614174000","version":2}`, "version", "type"},
			{`{"id":"123e4567-e89b-12d3-a456-426614174000","ZooBase":{}}`, "ZooBase", "additionalProperties"},
			{`{"id":"123e4567-e89b-12d3-a456-426614174000","note":"this note is far too long"}`, "note", "maxLength"},
			{`{"id":"123e4567-e89b-12d3-a456-426614174000","meta":{"secret":"x"}}`, "meta.secret", "additionalProperties"},
		},
	},
	{
		name: "maps",
		in:   tf[ZooMaps](),
		valid: []string{
			`{"labels":{"a":"b"},"by_id":{"1":"one","-2":"minus"},"ports":{"80":true},"points":{"o":{"x":0,"y":0}},"groups":{"g":["a"]},"named":{"k":1}}`,
			`{"labels":{}}`,
		},
		invalid: []zooCase{
			{`{"labels":{"a":1}}`, "labels.a", "type"},
			{`{"labels":{},"by_id":{"x":"y"}}`, "by_id.x", "pattern"},
			{`{"labels":{},"ports":{"-1":true}}`, "ports.-1", "pattern"},
			{`{"labels":{},"points":{"o":{"x":0}}}`, "points.o.y", "required"},
			{`{"labels":{},"groups":{"g":[1]}}`, "groups.g[0]", "type"},
			{`{"labels":{"a":"b","a":"c"}}`, "labels.a", "uniqueKeys"},
			// Integer keys beyond the key type's range match the published
			// pattern; only the decoder can tell.
			{`{"labels":{},"ports":{"70000":true}}`, "ports.70000", "propertyNames"},
		},
		runtimeOnly: []string{"propertyNames", "uniqueKeys"},
	},
	{
		name: "enums",
		in:   tf[ZooEnums](),
		valid: []string{
			`{"color":"red","mode":"very slow","level":2,"prio":10,"scale":0.5,"tags":["a","b"],"kinds":["x"],"fixed":"v1","on":true}`,
			`{"color":"blue","level":3.0,"scale":2}`,
		},
		invalid: []zooCase{
			{`{"color":"pink","level":1}`, "color", "enum"},
			{`{"color":"red","level":4}`, "level", "enum"},
			{`{"color":"red","level":1,"mode":"very"}`, "mode", "enum"},
			{`{"color":"red","level":1,"mode":""}`, "mode", "enum"},
			{`{"color":"red","level":1,"scale":0.75}`, "scale", "enum"},
			{`{"color":"red","level":1,"tags":["a","c"]}`, "tags[1]", "enum"},
			{`{"color":"red","level":1,"kinds":["z"]}`, "kinds[0]", "enum"},
			{`{"color":"red","level":1,"fixed":"v2"}`, "fixed", "const"},
			{`{"color":"red","level":1,"on":false}`, "on", "enum"},
		},
		opaque: []string{"on"},
	},
	{
		name: "times",
		in:   tf[ZooTimes](),
		valid: []string{
			`{"at":"2024-01-02T03:04:05Z","until":"2024-01-02T03:04:05.123+02:00","slots":["2024-01-02T03:04:05Z"],"day":"2024-02-29"}`,
			`{"at":"2024-01-02t03:04:05z"}`,
		},
		invalid: []zooCase{
			{`{"at":"yesterday"}`, "at", "format"},
			{`{"at":"2024-01-02 03:04:05Z"}`, "at", "format"},
			{`{"at":"2024-01-02T03:04:05Z","day":"2023-02-29"}`, "day", "format"},
			{`{"at":"2024-01-02T03:04:05Z","slots":["2024-01-02T03:04:05Z","2024-01-02T03:04:05Z","2024-01-02T03:04:05Z","2024-01-02T03:04:05Z"]}`, "slots", "maxItems"},
			{`{"at":5}`, "at", "type"},
		},
	},
	{
		name: "raw",
		in:   tf[ZooRaw](),
		valid: []string{
			`{"payload":{"any":[1,"x",null]},"blob":"aGVsbG8=","bytes":"AQID","extra":{"k":[1]},"typed":{"a":1},"addr":"192.0.2.1"}`,
			`{"payload":null}`,
			`{"payload":"s","addr":"2001:db8::1"}`,
		},
		invalid: []zooCase{
			{`{}`, "payload", "required"},
			{`{"payload":1,"typed":"x"}`, "typed", "type"},
			{`{"payload":1,"blob":"aGVsbG8gd29ybGQ="}`, "blob", "maxLength"},
			// Runtime-only: base64 validity, the byte length of []byte, the
			// text form of an encoding.TextUnmarshaler.
			{`{"payload":1,"blob":"!!"}`, "blob", "contentEncoding"},
			{`{"payload":1,"bytes":"AQIDBAU="}`, "bytes", "max"},
			{`{"payload":1,"addr":"not-an-ip"}`, "addr", "format"},
		},
		runtimeOnly: []string{"contentEncoding", "max", "format"},
		opaque:      []string{"typed"},
	},
	{
		name:  "recursive_self",
		in:    tf[ZooTree](),
		refs:  true,
		valid: []string{`{"value":1,"children":[{"value":2,"children":[{"value":3}]},{"value":4}]}`},
		invalid: []zooCase{
			{`{"value":1,"children":[{"value":2,"children":[{"value":"x"}]}]}`, "children[0].children[0].value", "type"},
			{`{"value":1,"children":[{"value":2},{"value":2},{"value":2},{"value":2}]}`, "children", "maxItems"},
			{`{"value":1,"children":[{"value":2,"children":[{}]}]}`, "children[0].children[0].value", "required"},
		},
	},
	{
		name:  "recursive_field",
		in:    tf[ZooList](),
		refs:  true,
		valid: []string{`{"head":{"val":"a","next":{"val":"b","next":{"val":"c"}}}}`, `{}`},
		invalid: []zooCase{
			{`{"head":{"val":"a","next":{"val":""}}}`, "head.next.val", "minLength"},
			{`{"head":{"val":"a","next":null}}`, "head.next", "type"},
		},
	},
	{
		name:  "recursive_mutual",
		in:    tf[ZooFS](),
		refs:  true,
		valid: []string{`{"root":{"name":"/","files":[{"name":"a","dir":{"name":"sub","files":[{"name":"b"}]}}]}}`},
		invalid: []zooCase{
			{`{"root":{"name":"/","files":[{"name":"a","dir":{"name":"sub","files":[{"name":"toolongname"}]}}]}}`, "root.files[0].dir.files[0].name", "maxLength"},
			{`{"root":{"name":"/","files":[{"dir":{"name":"x"}}]}}`, "root.files[0].name", "required"},
		},
	},
	{
		name:  "custom_schema",
		in:    tf[ZooCustom](),
		valid: []string{`{"fg":"#00ff00","bg":"#000000","range":[1,2],"colors":["#ffffff","#000000"]}`, `{"fg":"#abcdef"}`},
		invalid: []zooCase{
			{`{"fg":"red"}`, "fg", "pattern"},
			{`{"fg":"#000000","range":[1]}`, "range", "minItems"},
			{`{"fg":"#000000","colors":["#000000","bad"]}`, "colors[1]", "pattern"},
			{`{"fg":"#000000","colors":["#000000","#000000","#000000"]}`, "colors", "maxItems"},
		},
		opaque: []string{"fg", "bg", "range", "colors"},
	},
	{
		name:  "extend",
		in:    tf[ZooExtended](),
		valid: []string{`{"name":"x","code":"EUR"}`, `{"code":"USD"}`},
		invalid: []zooCase{
			{`{}`, "", "minProperties"},
			{`{"code":"eur"}`, "code", "pattern"},
		},
		opaque: []string{""},
	},
	{
		name: "string_rules",
		in:   tf[ZooStringRules](),
		valid: []string{
			`{"req":" ","min":"ab","max":"abcde","len":"abc","gt":"abc","gte":"ab","lt":"abc","lte":"abcd","eq":"yes","both":"é"}`,
			`{"req":"x","both":"ééé","len":"日本語"}`,
		},
		invalid: []zooCase{
			{`{}`, "req", "required"},
			{`{"req":""}`, "req", "minLength"},
			{`{"req":"x","min":"a"}`, "min", "minLength"},
			{`{"req":"x","max":"abcdef"}`, "max", "maxLength"},
			{`{"req":"x","len":"ab"}`, "len", "minLength"},
			{`{"req":"x","len":"abcd"}`, "len", "maxLength"},
			{`{"req":"x","gt":"ab"}`, "gt", "minLength"},
			{`{"req":"x","gte":"a"}`, "gte", "minLength"},
			{`{"req":"x","lt":"abcd"}`, "lt", "maxLength"},
			{`{"req":"x","lte":"abcde"}`, "lte", "maxLength"},
			{`{"req":"x","eq":"no"}`, "eq", "const"},
			{`{"req":"x","both":""}`, "both", "minLength"},
		},
	},
	{
		name: "required_values",
		in:   tf[ZooRequiredValues](),
		valid: []string{
			`{"str":" ","bytes":"AA==","list":[""],"dict":{"k":0},"ptr":"","num":0,"flag":false,"nested":{},"longer":"abc","tagged":"ab","ids":[0],"when":"2026-01-02T03:04:05Z"}`,
			`{"str":"x","bytes":"AAA=","list":["a","b"],"dict":{"a":1,"b":2},"ptr":"p","num":-1,"flag":true,"nested":{"k":"v"},"longer":"abcd","tagged":"abc","ids":[1,2],"when":"0001-01-01T00:00:00Z"}`,
		},
		invalid: []zooCase{
			{`{"str":"","bytes":"AA==","list":[""],"dict":{"k":0},"ptr":"","num":0,"flag":false,"nested":{},"longer":"abc","tagged":"ab","ids":[0],"when":"2026-01-02T03:04:05Z"}`, "str", "minLength"},
			{`{"str":"x","bytes":"","list":[""],"dict":{"k":0},"ptr":"","num":0,"flag":false,"nested":{},"longer":"abc","tagged":"ab","ids":[0],"when":"2026-01-02T03:04:05Z"}`, "bytes", "minLength"},
			{`{"str":"x","bytes":"AA==","list":[],"dict":{"k":0},"ptr":"","num":0,"flag":false,"nested":{},"longer":"abc","tagged":"ab","ids":[0],"when":"2026-01-02T03:04:05Z"}`, "list", "minItems"},
			{`{"str":"x","bytes":"AA==","list":[""],"dict":{},"ptr":"","num":0,"flag":false,"nested":{},"longer":"abc","tagged":"ab","ids":[0],"when":"2026-01-02T03:04:05Z"}`, "dict", "minProperties"},
			{`{"str":"x","bytes":"AA==","list":[""],"dict":{"k":0},"ptr":null,"num":0,"flag":false,"nested":{},"longer":"abc","tagged":"ab","ids":[0],"when":"2026-01-02T03:04:05Z"}`, "ptr", "type"},
			{`{"str":"x","bytes":"AA==","list":[""],"dict":{"k":0},"num":0,"flag":false,"nested":{},"longer":"abc","tagged":"ab","ids":[0],"when":"2026-01-02T03:04:05Z"}`, "ptr", "required"},
			{`{"str":"x","bytes":"AA==","list":[""],"dict":{"k":0},"ptr":"","flag":false,"nested":{},"longer":"abc","tagged":"ab","ids":[0],"when":"2026-01-02T03:04:05Z"}`, "num", "required"},
			{`{"str":"x","bytes":"AA==","list":[""],"dict":{"k":0},"ptr":"","num":0,"flag":false,"nested":{},"longer":"ab","tagged":"ab","ids":[0],"when":"2026-01-02T03:04:05Z"}`, "longer", "minLength"},
			{`{"str":"x","bytes":"AA==","list":[""],"dict":{"k":0},"ptr":"","num":0,"flag":false,"nested":{},"longer":"abc","tagged":"a","ids":[0],"when":"2026-01-02T03:04:05Z"}`, "tagged", "minLength"},
			{`{"str":"x","bytes":"AA==","list":[""],"dict":{"k":0},"ptr":"","num":0,"flag":false,"nested":{},"longer":"abc","tagged":"ab","ids":[],"when":"2026-01-02T03:04:05Z"}`, "ids", "minItems"},
		},
	},
	{
		name: "number_rules",
		in:   tf[ZooNumberRules](),
		valid: []string{
			`{"min":1,"max":10,"gt":1,"gte":0.5,"lt":1.4,"lte":-1,"eq":7,"between":9,"mult":10,"uint":5,"f32":1,"len":3,"sure":true}`,
			`{"min":100,"max":-100,"mult":0,"f32":-1}`,
		},
		invalid: []zooCase{
			{`{"min":0}`, "min", "minimum"},
			{`{"min":1,"max":11}`, "max", "maximum"},
			{`{"min":1,"gt":0}`, "gt", "exclusiveMinimum"},
			{`{"min":1,"gte":0.4}`, "gte", "minimum"},
			{`{"min":1,"lt":1.5}`, "lt", "exclusiveMaximum"},
			{`{"min":1,"lte":0}`, "lte", "maximum"},
			{`{"min":1,"eq":8}`, "eq", "const"},
			{`{"min":1,"between":10}`, "between", "exclusiveMaximum"},
			{`{"min":1,"mult":12}`, "mult", "multipleOf"},
			{`{"min":1,"uint":6}`, "uint", "maximum"},
			{`{"min":1,"f32":1.5}`, "f32", "maximum"},
			{`{"min":1.5}`, "min", "type"},
			{`{"min":1,"len":4}`, "len", "const"},
			{`{"min":1,"sure":false}`, "sure", "const"},
		},
	},
	{
		name: "slice_rules",
		in:   tf[ZooSliceRules](),
		valid: []string{
			`{"min":["a"],"max":[1,2],"len":[1,2],"gt":[1,2],"gte":[1],"lt":[1,2],"lte":[1,2],"unique":["a","b"],"points":[{"x":1,"y":1},{"x":1,"y":2}],"nums":[1,2.5],"arr":[1,2,3]}`,
			`{"min":[""],"max":[],"lt":[]}`,
		},
		invalid: []zooCase{
			{`{"min":[]}`, "min", "minItems"},
			{`{"min":["a"],"max":[1,2,3]}`, "max", "maxItems"},
			{`{"min":["a"],"len":[1]}`, "len", "minItems"},
			{`{"min":["a"],"gt":[1]}`, "gt", "minItems"},
			{`{"min":["a"],"gte":[]}`, "gte", "minItems"},
			{`{"min":["a"],"lt":[1,2,3]}`, "lt", "maxItems"},
			{`{"min":["a"],"lte":[1,2,3]}`, "lte", "maxItems"},
			{`{"min":["a"],"unique":["a","a"]}`, "unique", "uniqueItems"},
			{`{"min":["a"],"points":[{"x":1,"y":1},{"y":1,"x":1}]}`, "points", "uniqueItems"},
			{`{"min":["a"],"nums":[1,1.0]}`, "nums", "uniqueItems"},
			{`{"min":["a"],"arr":[1,2]}`, "arr", "minItems"},
			{`{"min":["a"],"arr":[1,2,3,4]}`, "arr", "maxItems"},
		},
	},
	{
		name: "map_rules",
		in:   tf[ZooMapRules](),
		valid: []string{
			`{"min":{"a":1},"max":{"a":1,"b":2},"len":{"a":1},"gt":{"a":1,"b":2},"lt":{"a":1},"gte":{"a":1},"lte":{"a":1},"props":{"a":"x"},"keys":{"ab":0},"by_ip":{"10.0.0.1":"a@example.com"}}`,
			`{"min":{"":0},"max":{},"lt":{}}`,
		},
		invalid: []zooCase{
			{`{"min":{}}`, "min", "minProperties"},
			{`{"min":{"a":1},"max":{"a":1,"b":2,"c":3}}`, "max", "maxProperties"},
			{`{"min":{"a":1},"len":{}}`, "len", "minProperties"},
			{`{"min":{"a":1},"gt":{"a":1}}`, "gt", "minProperties"},
			{`{"min":{"a":1},"lt":{"a":1,"b":2}}`, "lt", "maxProperties"},
			{`{"min":{"a":1},"props":{}}`, "props", "minProperties"},
			{`{"min":{"a":1},"gte":{}}`, "gte", "minProperties"},
			{`{"min":{"a":1},"lte":{"a":1,"b":2}}`, "lte", "maxProperties"},
			{`{"min":{"a":1},"keys":{"a":0}}`, "keys.a", "minLength"},
			{`{"min":{"a":1},"keys":{"abcde":0}}`, "keys.abcde", "maxLength"},
			{`{"min":{"a":1},"keys":{"ab":-1}}`, "keys.ab", "minimum"},
			{`{"min":{"a":1},"by_ip":{"x":"a@example.com"}}`, "by_ip.x", "format"},
			{`{"min":{"a":1},"by_ip":{"10.0.0.1":"nope"}}`, `by_ip."10.0.0.1"`, "format"},
		},
	},
	{
		name: "formats",
		in:   tf[ZooFormats](),
		valid: []string{
			`{"email":"a@example.com","url":"https://example.com/x?y=1","uri":"urn:isbn:0451450523","uuid":"123e4567-e89b-12d3-a456-426614174000","host":"example.com","host952":"example.com","ipv4":"192.0.2.1","ipv6":"2001:db8::1","date_time":"2024-01-02T03:04:05+01:00","date":"2024-01-02","clock":"03:04:05Z","ref":"../x?y=1#z"}`,
			`{}`,
		},
		invalid: []zooCase{
			{`{"email":"no-at-sign"}`, "email", "format"},
			{`{"email":"0@é.A"}`, "email", "format"},
			{`{"email":"é@example.com"}`, "email", "format"},
			{`{"url":"/relative/path"}`, "url", "format"},
			{`{"uri":"no scheme"}`, "uri", "format"},
			{`{"uuid":"123e4567"}`, "uuid", "format"},
			{`{"host":"-bad-.example"}`, "host", "format"},
			{`{"host952":"a_b"}`, "host952", "format"},
			{`{"ipv4":"256.0.0.1"}`, "ipv4", "format"},
			{`{"ipv6":"192.0.2.1"}`, "ipv6", "format"},
			{`{"date_time":"2024-01-02"}`, "date_time", "format"},
			{`{"date":"2024-13-01"}`, "date", "format"},
			{`{"clock":"25:00:00Z"}`, "clock", "format"},
			{`{"ref":"%zz"}`, "ref", "format"},
		},
	},
	{
		name: "dive",
		in:   tf[ZooDive](),
		valid: []string{
			`{"names":["ab","cd"],"matrix":[[0,9],[1]],"scores":{"a":100},"emails":["a@example.com"],"ptrs":[1,2],"prefixed":["x1","xy"]}`,
			`{"names":["abcdefghij"],"matrix":[[]]}`,
		},
		invalid: []zooCase{
			{`{"names":[]}`, "names", "minItems"},
			{`{"names":["ab","a"]}`, "names[1]", "minLength"},
			{`{"names":["ab"],"matrix":[[0],[1,10]]}`, "matrix[1][1]", "maximum"},
			{`{"names":["ab"],"matrix":[[0,1,2,3]]}`, "matrix[0]", "maxItems"},
			{`{"names":["ab"],"scores":{"":1}}`, `scores.""`, "minLength"},
			{`{"names":["ab"],"scores":{"toolongkey":1}}`, "scores.toolongkey", "maxLength"},
			{`{"names":["ab"],"scores":{"a":101}}`, "scores.a", "maximum"},
			{`{"names":["ab"],"emails":["a@example.com","x"]}`, "emails[1]", "format"},
			{`{"names":["ab"],"ptrs":[1,0]}`, "ptrs[1]", "minimum"},
			{`{"names":["ab"],"ptrs":[null]}`, "ptrs[0]", "type"},
			{`{"names":["ab"],"prefixed":["x","y"]}`, "prefixed[1]", "startswith"},
		},
		runtimeOnly: []string{"startswith"},
	},
	{
		name: "residual",
		in:   tf[ZooResidual](),
		valid: []string{
			`{"code":"AB12","pass":"password1","confirm":"password1","mixed":"a@b","either":"a@example.com"}`,
			`{"code":"AB","pass":"12345678","confirm":"12345678","either":"123e4567-e89b-12d3-a456-426614174000"}`,
		},
		invalid: []zooCase{
			{`{"code":"XY12","pass":"password1","confirm":"password1"}`, "code", "startswith"},
			{`{"code":"AB-1","pass":"password1","confirm":"password1"}`, "code", "alphanum"},
			{`{"code":"AB","pass":"password1","confirm":"password2"}`, "confirm", "eqfield"},
			{`{"code":"AB","pass":"password1","confirm":"password1","mixed":"abc"}`, "mixed", "contains"},
			{`{"code":"AB","pass":"password1","confirm":"password1","mixed":"abcdefghij@"}`, "mixed", "maxLength"},
			{`{"code":"AB","pass":"password1","confirm":"password1","either":"neither"}`, "either", "uuid|email"},
			{`{"code":"AB","pass":"short","confirm":"short"}`, "pass", "minLength"},
		},
		runtimeOnly: []string{"startswith", "alphanum", "eqfield", "contains", "uuid|email"},
	},
	{
		name: "keywords",
		in:   tf[ZooKeywords](),
		valid: []string{
			`{"title":"t","desc":"d","typed":"s","enum":"a","const":3,"default":"x","example":1,"deprecated":"d","read_only":"r","write_only":"w","required":"r","minimum":-3,"maximum":2.5,"ex_min":1,"ex_max":0.5,"multiple_of":0.75,"min_length":"ab","max_length":"abcd","pattern":"abc","format":"a@example.com","encoded":"e30=","min_items":[1],"max_items":[1,2],"unique":["a"],"items_fmt":["123e4567-e89b-12d3-a456-426614174000"],"min_props":{"a":1},"max_props":{"a":"b"},"desc_tag":"d","extras":"e"}`,
			`{"required":""}`,
		},
		invalid: []zooCase{
			{`{}`, "required", "required"},
			{`{"required":"","typed":1}`, "typed", "type"},
			{`{"required":"","enum":"c"}`, "enum", "enum"},
			{`{"required":"","const":4}`, "const", "const"},
			{`{"required":"","minimum":-4}`, "minimum", "minimum"},
			{`{"required":"","maximum":2.6}`, "maximum", "maximum"},
			{`{"required":"","ex_min":0}`, "ex_min", "exclusiveMinimum"},
			{`{"required":"","ex_max":1}`, "ex_max", "exclusiveMaximum"},
			{`{"required":"","multiple_of":0.3}`, "multiple_of", "multipleOf"},
			{`{"required":"","min_length":"a"}`, "min_length", "minLength"},
			{`{"required":"","max_length":"abcde"}`, "max_length", "maxLength"},
			{`{"required":"","pattern":"a"}`, "pattern", "pattern"},
			{`{"required":"","pattern":"abcde"}`, "pattern", "pattern"},
			{`{"required":"","format":"x"}`, "format", "format"},
			{`{"required":"","min_items":[]}`, "min_items", "minItems"},
			{`{"required":"","max_items":[1,2,3]}`, "max_items", "maxItems"},
			{`{"required":"","unique":["a","a"]}`, "unique", "uniqueItems"},
			{`{"required":"","items_fmt":["223e4567-e89b-12d3-a456-426614174000"]}`, "items_fmt[0]", "pattern"},
			{`{"required":"","items_fmt":["1"]}`, "items_fmt[0]", "format"},
			{`{"required":"","min_props":{}}`, "min_props", "minProperties"},
			{`{"required":"","max_props":{"a":"1","b":"2"}}`, "max_props", "maxProperties"},
		},
		opaque: []string{"typed"},
	},
	{
		name: "defaults",
		in:   tf[ZooDefaults](),
		valid: []string{
			`{"name":"bob","limit":5,"ratio":1,"strict":false,"tags":["x"],"mode":"slow","since":"2024-01-01T00:00:00Z","old":"o"}`,
			`{}`,
		},
		invalid: []zooCase{
			{`{"limit":0}`, "limit", "minimum"},
			{`{"mode":"medium"}`, "mode", "enum"},
			{`{"tags":null}`, "tags", "type"},
		},
	},
	{
		name:    "hints_read_only",
		in:      tf[ZooHintsReadOnly](),
		valid:   []string{`{"q":"x"}`},
		invalid: []zooCase{{`{"q":"x","_":{}}`, "_", "additionalProperties"}},
	},
	{
		name:  "hints_write",
		in:    tf[ZooHintsWrite](),
		valid: []string{`{"id":"1"}`},
	},
	{
		name:  "hints_safe",
		in:    tf[ZooHintsSafe](),
		valid: []string{`{}`},
	},
	{
		name: "keep_defs",
		in:   tf[ZooSearch](),
		opts: Options{KeepDefs: true},
		refs: true,
		valid: []string{
			`{"query":"q","filters":[{"field":"title","from":0},{"field":"body","from":1,"to":2},{"field":"author","from":2,"to":3}],"page":{"size":5,"cursor":"c"}}`,
		},
		invalid: []zooCase{
			{`{"query":"q","filters":[{"field":"title","from":0},{"field":"body","from":1},{"field":"author","from":-1}],"page":{}}`, "filters[2].from", "minimum"},
		},
		runtimeOnly: []string{"gtefield"},
	},
	{
		name:  "keep_defs_recursive",
		in:    tf[ZooFS](),
		opts:  Options{KeepDefs: true},
		refs:  true,
		valid: []string{`{"root":{"name":"/","files":[{"name":"a","dir":{"name":"sub","files":[{"name":"b"}]}}]}}`},
	},
	{
		name:  "dialect",
		in:    tf[ZooPointers](),
		opts:  Options{DeclareDialect: true},
		valid: []string{`{"s":"x","n":2,"p":{"x":1,"y":2},"pp":true,"ps":[{"x":0,"y":0}]}`},
	},
	{
		name:  "arrays",
		in:    tf[ZooArrays](),
		valid: []string{`{"triple":[1,2,3],"grid":[["a"],[]],"pairs":[[true,false]]}`},
		invalid: []zooCase{
			{`{"triple":[1,2]}`, "triple", "minItems"},
			{`{"triple":[1,2,3,4]}`, "triple", "maxItems"},
			{`{"triple":[1,2,3],"pairs":[[true]]}`, "pairs[0]", "minItems"},
			{`{"triple":[1,2,"3"]}`, "triple[2]", "type"},
		},
	},

	// Results.
	{name: "out_struct", out: tf[ZooResult]()},
	{name: "out_pointer", out: tf[*ZooResult]()},
	{name: "out_slice", out: tf[[]ZooPoint]()},
	{name: "out_map", out: tf[map[string]int]()},
	{name: "out_int", out: tf[int]()},
	{name: "out_time", out: tf[time.Time]()},
	{name: "out_recursive", out: tf[ZooTree](), refs: true},
	{name: "out_recursive_slice", out: tf[[]ZooTree](), refs: true},
	{name: "out_keep_defs", out: tf[ZooFS](), opts: Options{KeepDefs: true}, refs: true},
	{name: "out_string", out: tf[string]()},
	{name: "out_named_string", out: tf[ZooText]()},
	{name: "out_content", out: tf[*mcp.TextContent]()},
	{name: "out_contents", out: tf[[]mcp.Content]()},
	{name: "out_text_contents", out: tf[zooContents]()},
	{name: "out_call_tool_result", out: tf[*mcp.CallToolResult]()},
	{name: "out_any", out: tf[any]()},
	{name: "out_none", noOut: true},
	{name: "tool_in_out", in: tf[ZooSearch](), out: tf[[]ZooResult](),
		valid: []string{`{"query":"q","page":{}}`}},
}

// goldenDoc renders an entry's schemas as the golden file holds them.
func goldenDoc(t *testing.T, e zooEntry) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("{")
	sep := "\n"
	field := func(name string, raw []byte) {
		b.WriteString(sep)
		sep = ",\n"
		b.WriteString("  " + `"` + name + `": `)
		if err := json.Indent(&b, raw, "  ", "  "); err != nil {
			t.Fatalf("indent %s: %v", name, err)
		}
	}
	if e.in != nil {
		p, err := PlanFor(e.in, e.opts)
		if err != nil {
			t.Fatalf("PlanFor(%v): %v", e.in, err)
		}
		field("input", p.SchemaJSON)
		if p.Tool.Hints != (annotations.Hints{}) {
			a, err := json.Marshal(toolAnnotations(p.Tool.Hints))
			if err != nil {
				t.Fatal(err)
			}
			field("annotations", a)
		}
	}
	if e.out != nil || e.noOut {
		o, err := OutputFor(e.out, e.opts)
		if err != nil {
			t.Fatalf("OutputFor(%v): %v", e.out, err)
		}
		if o.Schema != nil {
			field("output", o.SchemaJSON)
		} else {
			field("output", []byte("null"))
		}
		field("structured", []byte(boolJSON(o.kind == outStructured)))
		field("wrapped", []byte(boolJSON(o.Wrapped)))
	}
	b.WriteString("\n}\n")
	return b.Bytes()
}

func boolJSON(v bool) string {
	if v {
		return "true"
	}
	return "false"
}

func TestZooGolden(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range zoo {
		if seen[e.name] {
			t.Fatalf("duplicate zoo entry %q", e.name)
		}
		seen[e.name] = true
		t.Run(e.name, func(t *testing.T) {
			got := goldenDoc(t, e)
			path := filepath.Join("..", "testdata", "schemas", e.name+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./reflect -run TestZooGolden -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the derived schema (run go test ./reflect -run TestZooGolden -update to rewrite):\n%s", path, lineDiff(string(want), string(got)))
			}
		})
	}
	if !*update {
		// Every golden file belongs to a zoo entry.
		files, _ := filepath.Glob(filepath.Join("..", "testdata", "schemas", "*.json"))
		for _, f := range files {
			if n := strings.TrimSuffix(filepath.Base(f), ".json"); !seen[n] {
				t.Errorf("%s has no zoo entry", f)
			}
		}
	}
}

// lineDiff shows the first differing line of two texts, with context.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl
		}
	}
	return "(no line differs)"
}

// TestZooSchemaShape checks the rules every published schema follows: valid
// JSON Schema 2020-12 (compiled against the meta-schema), an object at the
// root, no boolean schema except additionalProperties: false, a single
// "type" on inputs (never ["null","array"]), closed structs, and $ref/$defs
// only for recursive types or with KeepDefs, every $ref resolving.
func TestZooSchemaShape(t *testing.T) {
	for _, e := range zoo {
		t.Run(e.name, func(t *testing.T) {
			var schemas []struct {
				raw   []byte
				input bool
			}
			if e.in != nil {
				p, err := PlanFor(e.in, e.opts)
				if err != nil {
					t.Fatal(err)
				}
				schemas = append(schemas, struct {
					raw   []byte
					input bool
				}{p.SchemaJSON, true})
			}
			if e.out != nil {
				o, err := OutputFor(e.out, e.opts)
				if err != nil {
					t.Fatal(err)
				}
				if o.Schema != nil {
					schemas = append(schemas, struct {
						raw   []byte
						input bool
					}{o.SchemaJSON, false})
				}
			}
			for _, s := range schemas {
				compileSchema(t, e.name, s.raw)
				var root map[string]any
				if err := json.Unmarshal(s.raw, &root); err != nil {
					t.Fatal(err)
				}
				if root["type"] != "object" {
					t.Errorf("root type is %v, want object", root["type"])
				}
				defs, _ := root["$defs"].(map[string]any)
				if (len(defs) > 0) != e.refs {
					t.Errorf("$defs present: %v, want %v", len(defs) > 0, e.refs)
				}
				checkShape(t, root, "#", s.input, defs, e.refs)
				checkDefaultsAndExamples(t, e.name, root, root, "#")
			}
		})
	}
}

func checkShape(t *testing.T, node any, where string, input bool, defs map[string]any, refs bool) {
	t.Helper()
	s, ok := node.(map[string]any)
	if !ok {
		t.Errorf("%s: boolean or non-object schema %v", where, node)
		return
	}
	if ref, ok := s["$ref"].(string); ok {
		if !refs {
			t.Errorf("%s: $ref %s, but this entry inlines every type", where, ref)
		}
		if _, ok := defs[strings.TrimPrefix(ref, "#/$defs/")]; !ok || !strings.HasPrefix(ref, "#/$defs/") {
			t.Errorf("%s: $ref %s does not resolve", where, ref)
		}
		if len(s) != 1 {
			t.Errorf("%s: $ref with siblings: %v", where, s)
		}
	}
	switch typ := s["type"].(type) {
	case nil, string:
	case []any:
		if input {
			t.Errorf("%s: input type %v: inputs never allow null", where, typ)
		}
	default:
		t.Errorf("%s: bad type %v", where, typ)
	}
	if props, ok := s["properties"].(map[string]any); ok {
		if s["additionalProperties"] != false {
			t.Errorf("%s: struct without additionalProperties: false", where)
		}
		if len(props) == 0 {
			t.Errorf("%s: empty properties", where)
		}
		for k, v := range props {
			checkShape(t, v, where+"/properties/"+k, input, defs, refs)
		}
	}
	switch ap := s["additionalProperties"].(type) {
	case nil:
	case bool:
		if ap {
			t.Errorf("%s: additionalProperties: true", where)
		}
	default:
		checkShape(t, ap, where+"/additionalProperties", input, defs, refs)
	}
	for _, k := range []string{"items", "propertyNames"} {
		if v, ok := s[k]; ok {
			checkShape(t, v, where+"/"+k, input, defs, refs)
		}
	}
	for k, v := range s {
		switch k {
		case "$defs":
			for n, d := range v.(map[string]any) {
				checkShape(t, d, where+"/$defs/"+n, input, defs, refs)
			}
		case "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "prefixItems", "contains", "patternProperties":
			t.Errorf("%s: unexpected composition keyword %s", where, k)
		}
	}
}

// TestZooCoverage makes sure the zoo exercises every jsonschema key, every
// validate rule mcpgen mirrors, some it leaves to run time, every mcp hint,
// and the shapes the issue lists.
func TestZooCoverage(t *testing.T) {
	tags := map[string]map[string]bool{"jsonschema": {}, "validate": {}, "mcp": {}, "jsonschema_description": {}, "jsonschema_extras": {}}
	seenTypes := map[reflect.Type]bool{}
	var visit func(rt reflect.Type)
	visit = func(rt reflect.Type) {
		for rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice || rt.Kind() == reflect.Array || rt.Kind() == reflect.Map {
			rt = rt.Elem()
		}
		if rt.Kind() != reflect.Struct || seenTypes[rt] {
			return
		}
		seenTypes[rt] = true
		for i := 0; i < rt.NumField(); i++ {
			sf := rt.Field(i)
			for name, set := range tags {
				v, ok := sf.Tag.Lookup(name)
				if !ok {
					continue
				}
				set[""] = true
				switch name {
				case "jsonschema":
					for _, it := range splitUnescapedCommas(v) {
						k, _, _ := strings.Cut(it, "=")
						set[k] = true
					}
				case "validate":
					for _, r := range strings.Split(v, ",") {
						for _, a := range strings.Split(r, "|") {
							k, _, _ := strings.Cut(a, "=")
							set[k] = true
						}
					}
				case "mcp":
					items, _ := annotations.ParseTag(v)
					for _, it := range items {
						set[it.Key] = true
						if it.HasValue && it.Value == "false" {
							set[it.Key+"=false"] = true
						}
					}
				}
			}
			visit(sf.Type)
		}
	}
	for _, e := range zoo {
		if e.in != nil {
			visit(e.in)
		}
		if e.out != nil {
			visit(e.out)
		}
	}
	need := map[string][]string{
		"jsonschema": schemaKeys,
		"validate": {"required", "omitempty", "min", "max", "len", "gt", "gte", "lt", "lte", "eq", "oneof",
			"email", "url", "uri", "uuid", "hostname", "hostname_rfc1123", "ipv4", "ipv6", "datetime", "unique",
			"dive", "keys", "endkeys", "startswith", "alphanum", "eqfield", "gtefield", "contains"},
		"mcp":                    {"title", "readOnly", "destructive", "idempotent", "openWorld", "openWorld=false", "destructive=false"},
		"jsonschema_description": {""},
		"jsonschema_extras":      {""},
	}
	for name, keys := range need {
		for _, k := range keys {
			if !tags[name][k] {
				t.Errorf("no zoo type uses %s %q", name, k)
			}
		}
	}
	kinds := map[reflect.Kind]bool{}
	for rt := range seenTypes {
		for i := 0; i < rt.NumField(); i++ {
			kinds[baseType(rt.Field(i).Type).Kind()] = true
		}
	}
	for _, k := range []reflect.Kind{reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint8, reflect.Uint16, reflect.Uint32,
		reflect.Uint64, reflect.Float32, reflect.Map, reflect.Array, reflect.Interface, reflect.Bool} {
		if !kinds[k] {
			t.Errorf("no zoo field of kind %s", k)
		}
	}
	n := 0
	for _, e := range zoo {
		if e.in != nil {
			n++
		}
	}
	if n < 25 {
		t.Errorf("%d argument types in the zoo, want at least 25", n)
	}
}

// checkDefaultsAndExamples validates every default and example against the
// schema it annotates.
func checkDefaultsAndExamples(t *testing.T, name string, root map[string]any, node any, where string) {
	t.Helper()
	s, ok := node.(map[string]any)
	if !ok {
		return
	}
	var values []any
	if d, ok := s["default"]; ok {
		values = append(values, d)
	}
	if ex, ok := s["examples"].([]any); ok {
		values = append(values, ex...)
	}
	if len(values) > 0 {
		bare := map[string]any{}
		for k, v := range s {
			if k != "default" && k != "examples" {
				bare[k] = v
			}
		}
		if defs, ok := root["$defs"]; ok {
			bare["$defs"] = defs
		}
		raw, _ := json.Marshal(bare)
		sch := compileSchema(t, name+"-annotation", raw)
		for _, v := range values {
			vraw, _ := json.Marshal(v)
			inst, _ := sjs.UnmarshalJSON(bytes.NewReader(vraw))
			if err := sch.Validate(inst); err != nil {
				t.Errorf("%s: default or example %s does not match its schema: %v", where, vraw, err)
			}
		}
	}
	for k, v := range s {
		switch k {
		case "properties", "$defs":
			for n, c := range v.(map[string]any) {
				checkDefaultsAndExamples(t, name, root, c, where+"/"+k+"/"+n)
			}
		case "items", "additionalProperties", "propertyNames":
			checkDefaultsAndExamples(t, name, root, v, where+"/"+k)
		}
	}
}

// toolAnnotations is how mcptool publishes hints, for the goldens: every
// hint at its effective value, destructiveHint left out on a read-only tool.
func toolAnnotations(h annotations.Hints) *mcp.ToolAnnotations {
	e := h.Effective()
	a := &mcp.ToolAnnotations{Title: h.Title, ReadOnlyHint: e.ReadOnly, IdempotentHint: e.Idempotent, OpenWorldHint: &e.OpenWorld}
	if !e.ReadOnly {
		a.DestructiveHint = &e.Destructive
	}
	return a
}
