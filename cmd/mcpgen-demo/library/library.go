// Package library is the demo's library service (library.proto): books and
// loans kept in memory, its methods served as MCP tools by the protobuf
// adapter (mcpproto) from the service's descriptor, with the .proto's
// protovalidate rules in the schemas and checked on every call.
package library

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	mcpproto "github.com/mcpgen/mcpgen/adapters/protobuf"
	"github.com/mcpgen/mcpgen/mcptool"
)

// Types is the registry option the library's tools need.
func Types() mcptool.RegistryOption { return mcpproto.Types(mcpproto.SourceInfo(descriptors)) }

// Server implements the Library service.
type Server struct {
	now   func() time.Time
	mu    sync.Mutex
	books []*Book
	loans map[string]*Loan // by book ID, while lent
}

// New returns a library stocked with a few books.
func New(now func() time.Time) *Server {
	return &Server{now: now, loans: map[string]*Loan{}, books: []*Book{
		{BookId: "b-1", Title: "Dune", Authors: []string{"Frank Herbert"}, Year: 1965, Shelf: Shelf_SHELF_FICTION},
		{BookId: "b-2", Title: "The Left Hand of Darkness", Authors: []string{"Ursula K. Le Guin"}, Year: 1969, Shelf: Shelf_SHELF_FICTION},
		{BookId: "b-3", Title: "A Brief History of Time", Authors: []string{"Stephen Hawking"}, Year: 1988, Shelf: Shelf_SHELF_SCIENCE},
		{BookId: "b-4", Title: "The Structure of Scientific Revolutions", Authors: []string{"Thomas S. Kuhn"}, Year: 1962, Shelf: Shelf_SHELF_SCIENCE},
		{BookId: "b-5", Title: "SPQR", Authors: []string{"Mary Beard"}, Year: 2015, Shelf: Shelf_SHELF_HISTORY},
	}}
}

// SearchBooks implements Library.SearchBooks.
func (s *Server) SearchBooks(_ context.Context, in *SearchBooksRequest) (*SearchBooksResponse, error) {
	limit := int(in.GetLimit())
	if in.Limit == nil {
		limit = 10
	}
	q := strings.ToLower(in.GetQuery())
	s.mu.Lock()
	defer s.mu.Unlock()
	out := &SearchBooksResponse{Books: []*Book{}}
	for _, b := range s.books {
		if in.GetShelf() != Shelf_SHELF_UNSPECIFIED && b.GetShelf() != in.GetShelf() {
			continue
		}
		match := strings.Contains(strings.ToLower(b.GetTitle()), q) || slices.ContainsFunc(b.GetAuthors(), func(a string) bool {
			return strings.Contains(strings.ToLower(a), q)
		})
		if match && len(out.Books) < limit {
			c := proto.CloneOf(b)
			c.Lent = s.loans[b.GetBookId()] != nil
			out.Books = append(out.Books, c)
		}
	}
	return out, nil
}

// LendBook implements Library.LendBook.
func (s *Server) LendBook(_ context.Context, in *LendBookRequest) (*Loan, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.ContainsFunc(s.books, func(b *Book) bool { return b.GetBookId() == in.GetBookId() }) {
		return nil, mcptool.Errorf("no book %s", in.GetBookId())
	}
	if l := s.loans[in.GetBookId()]; l != nil {
		return nil, mcptool.Errorf("book %s is lent until %s", in.GetBookId(), l.GetDue().AsTime().Format(time.DateOnly))
	}
	l := &Loan{BookId: in.GetBookId(), Member: in.GetMember(), Due: timestamppb.New(s.now().AddDate(0, 0, int(in.GetDays())))}
	s.loans[in.GetBookId()] = l
	return proto.CloneOf(l), nil
}

// ReturnBook implements Library.ReturnBook.
func (s *Server) ReturnBook(_ context.Context, in *ReturnBookRequest) (*Loan, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.loans[in.GetBookId()]
	if l == nil {
		return nil, mcptool.Errorf("book %s is not lent", in.GetBookId())
	}
	delete(s.loans, in.GetBookId())
	l.Returned = timestamppb.New(s.now())
	return l, nil
}

// Register adds the library's tools (library_search_books,
// library_lend_book, library_return_book) to reg, which must have been made
// with [Types]. Their descriptions are the .proto's comments.
//
// read goes to the read-only method and write to the two that change loans
// (the demo gives them its scopes; nil adds nothing).
func Register(reg *mcptool.Registry, s *Server, read, write mcptool.Option) error {
	// The service with library.proto's comments (generated code has none).
	sd, err := mcpproto.Described(File_library_proto.Services().ByName("Library"), descriptors)
	if err != nil {
		return err
	}
	return mcpproto.AddService(reg, sd, s, mcptool.Prefix("library_"),
		mcptool.Method("SearchBooks", keep(mcptool.ReadOnly(true), mcptool.OpenWorld(false), mcptool.Title("Search Books"), read)...),
		mcptool.Method("LendBook", keep(mcptool.Destructive(false), mcptool.OpenWorld(false), mcptool.Title("Lend Book"), write)...),
		mcptool.Method("ReturnBook", keep(mcptool.Destructive(false), mcptool.Idempotent(false), mcptool.OpenWorld(false), mcptool.Title("Return Book"), write)...))
}

// keep drops the nil options.
func keep(opts ...mcptool.Option) []mcptool.Option {
	return slices.DeleteFunc(opts, func(o mcptool.Option) bool { return o == nil })
}
