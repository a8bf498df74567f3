package server

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/mcptool"
)

// CSVArgs are the arguments of analyze_csv. At most four calls run at once
// (concurrency=4), each for at most two minutes; each streams the file, so it
// holds one record (at most maxCSVRecord bytes) and its columns (at most
// maxCSVColumns), whatever the file's size.
type CSVArgs struct {
	_ struct{} `mcp:"title=Analyze CSV,readOnly,openWorld=false,timeout=2m,concurrency=4,task"`
	// The CSV file, relative to the data directory's files folder, e.g. "sales.csv"; its first row
	// names the columns.
	Filepath string `json:"filepath" jsonschema:"example=sales.csv" validate:"required,min=1,max=1024"`
	// The statistics to compute for each numeric column: sum, average (the mean) and count (how many
	// numbers the column has), e.g. ["sum", "average"].
	Operations []string `json:"operations,omitempty" jsonschema:"enum=sum,enum=average,enum=count,default=sum,default=average,default=count,uniqueItems"`
}

// CSVReport is what analyze_csv found.
type CSVReport struct {
	// The file analyzed, as given.
	File string `json:"file"`
	// The number of data rows, the header row not counted.
	Rows int64 `json:"rows"`
	// The numeric columns (every non-empty cell a number), in file order, with the statistics asked
	// for.
	Columns []ColumnStats `json:"columns"`
	// The columns that are not numeric (a cell holds text) or hold no values, by name.
	Skipped []string `json:"skippedColumns"`
}

// ColumnStats are the statistics of one numeric column.
type ColumnStats struct {
	// The column's name from the header row.
	Name string `json:"name"`
	// The sum of the column's numbers, when sum was asked for.
	Sum *float64 `json:"sum,omitempty"`
	// The mean of the column's numbers, when average was asked for and the column has any.
	Average *float64 `json:"average,omitempty"`
	// How many numbers the column has (empty cells not counted), when count was asked for.
	Count *int64 `json:"count,omitempty"`
}

// column accumulates one column while the file streams by.
type column struct {
	name    string
	sum     float64
	n       int64
	numeric bool
}

// AnalyzeCSV analyzes a CSV file from the server's data directory: for every
// numeric column, the sum, average and/or count of its values. The first row
// names the columns; columns with text in them are listed as skipped. The
// file is streamed, so large files work, with progress reported as it is
// read.
//
// Example: {"filepath": "sales.csv", "operations": ["sum", "average"]}
// returns the rows read and, per numeric column such as "units", its sum and
// average.
func (f *Files) AnalyzeCSV(ctx context.Context, in CSVArgs) (CSVReport, error) {
	file, err := f.root.Open(in.Filepath)
	if err != nil {
		return CSVReport{}, err
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return CSVReport{}, err
	}
	if !fi.Mode().IsRegular() {
		return CSVReport{}, mcptool.Errorf("%q is not a regular file", in.Filepath)
	}
	size := float64(fi.Size())
	lim := &recordLimit{r: file, name: in.Filepath}
	r := csv.NewReader(lim)
	r.ReuseRecord = true
	header, err := r.Read()
	lim.mark = r.InputOffset()
	if errors.Is(err, io.EOF) {
		return CSVReport{}, mcptool.Errorf("%q is empty: no header row", in.Filepath)
	}
	if err != nil {
		return CSVReport{}, csvError(in.Filepath, err)
	}
	if len(header) > maxCSVColumns {
		return CSVReport{}, mcptool.Errorf("%q has %d columns, more than the %d analyze_csv reads", in.Filepath, len(header), maxCSVColumns)
	}
	cols := make([]column, len(header))
	for i, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\uFEFF"))
		if h == "" {
			h = fmt.Sprintf("column %d", i+1)
		}
		cols[i] = column{name: h, numeric: true}
	}
	every := f.progressEvery
	if every <= 0 {
		every = 10_000
	}
	var rows int64
	for {
		rec, err := r.Read()
		lim.mark = r.InputOffset()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return CSVReport{}, csvError(in.Filepath, err)
		}
		rows++
		for i, cell := range rec {
			c := &cols[i]
			cell = strings.TrimSpace(cell)
			if !c.numeric || cell == "" {
				continue
			}
			v, err := strconv.ParseFloat(cell, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				c.numeric = false
				continue
			}
			c.sum += v
			c.n++
		}
		if rows%int64(every) == 0 {
			if err := ctx.Err(); err != nil {
				return CSVReport{}, err
			}
			mcptool.Progress(ctx, float64(r.InputOffset()), size, fmt.Sprintf("%d rows read", rows))
		}
	}
	mcptool.Progress(ctx, size, size, fmt.Sprintf("%d rows read", rows))
	return report(in, rows, cols)
}

// report turns the accumulated columns into the result.
func report(in CSVArgs, rows int64, cols []column) (CSVReport, error) {
	ops := in.Operations
	if len(ops) == 0 {
		ops = []string{"sum", "average", "count"}
	}
	out := CSVReport{File: in.Filepath, Rows: rows, Columns: []ColumnStats{}, Skipped: []string{}}
	for _, c := range cols {
		if !c.numeric || c.n == 0 {
			out.Skipped = append(out.Skipped, c.name)
			continue
		}
		if math.IsInf(c.sum, 0) {
			return CSVReport{}, mcptool.Errorf("column %q: the sum overflows (beyond about 1.8e308)", c.name)
		}
		s := ColumnStats{Name: c.name}
		if slices.Contains(ops, "sum") {
			sum := c.sum
			s.Sum = &sum
		}
		if slices.Contains(ops, "average") {
			avg := c.sum / float64(c.n)
			s.Average = &avg
		}
		if slices.Contains(ops, "count") {
			n := c.n
			s.Count = &n
		}
		out.Columns = append(out.Columns, s)
	}
	return out, nil
}

// The bounds of one analyze_csv call.
const (
	maxCSVRecord  = 1 << 20 // bytes of one record (a row; a quoted cell may span lines)
	maxCSVColumns = 10_000
)

// recordLimit stops encoding/csv, which holds a whole record in memory, when
// a record grows past maxCSVRecord bytes (a file of one endless line, or an
// unclosed quote). mark is where the last record read ended.
type recordLimit struct {
	r          io.Reader
	name       string
	read, mark int64
}

func (l *recordLimit) Read(p []byte) (int, error) {
	if l.read-l.mark > maxCSVRecord {
		return 0, mcptool.Errorf("%q has a record (a row, or a quoted cell) longer than %d bytes, more than analyze_csv reads", l.name, maxCSVRecord)
	}
	n, err := l.r.Read(p)
	l.read += int64(n)
	return n, err
}

// csvError describes a malformed CSV file, with the line the problem is on.
func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return mcptool.Errorf("%q is not valid CSV: %v", name, pe)
	}
	return err
}
