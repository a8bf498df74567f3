package server

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"

	"github.com/mcpgen/mcpgen/mcptool"
)

// GenerateCSVArgs are the arguments of generate_csv. At most two calls run
// at once (concurrency=2: each keeps a core busy); each streams its rows to
// the file, so it holds a 64 KiB buffer whatever the row count, and writes at
// most 5,000,000 rows (about 125 MB).
type GenerateCSVArgs struct {
	_ struct{} `mcp:"title=Generate CSV,destructive=false,idempotent,openWorld=false,task=required,timeout=5m,concurrency=2"`
	// Where to write the CSV file, relative to the data directory's files folder, e.g. "big.csv";
	// an existing file is replaced.
	Filepath string `json:"filepath" jsonschema:"example=big.csv" validate:"required,min=1,max=1024"`
	// How many data rows to write, e.g. 1000000.
	Rows int `json:"rows" jsonschema:"example=1000000" validate:"min=1,max=5000000"`
}

// GeneratedCSV is what generate_csv wrote.
type GeneratedCSV struct {
	// The file written, as given.
	File string `json:"file"`
	// The number of data rows, the header row not counted.
	Rows int `json:"rows"`
	// The file's size in bytes.
	Bytes int `json:"bytes"`
}

// GenerateCSV writes a CSV file of made-up sales (id, region, units, price)
// into the data directory, for analyze_csv to work on. It runs only as a
// task: a call that ends within a second is answered with its result, a
// longer one with a task handle the client polls, whose status message
// tells how many rows are written. The same rows come out for the
// same row count. The file appears whole when it is done; a cancelled call
// leaves the previous one. At most two run at once: a third is refused
// until one ends.
//
// Example: {"filepath": "big.csv", "rows": 1000000} writes about 25 MB.
func (f *Files) GenerateCSV(ctx context.Context, in GenerateCSVArgs) (GeneratedCSV, error) {
	n, err := f.root.WriteStream(in.Filepath, func(w io.Writer) error {
		return writeSales(ctx, w, in.Rows)
	})
	if err != nil {
		return GeneratedCSV{}, err
	}
	return GeneratedCSV{File: in.Filepath, Rows: in.Rows, Bytes: int(n)}, nil
}

// writeSales streams rows of made-up sales to w, reporting progress every
// twentieth of them.
func writeSales(ctx context.Context, w io.Writer, rows int) error {
	regions := []string{"north", "south", "east", "west"}
	rng := rand.New(rand.NewPCG(uint64(rows), 42))
	if _, err := io.WriteString(w, "id,region,units,price\n"); err != nil {
		return err
	}
	b := make([]byte, 0, 64)
	every := max(rows/20, 1)
	for i := 1; i <= rows; i++ {
		b = strconv.AppendInt(b[:0], int64(i), 10)
		b = append(b, ',')
		b = append(b, regions[rng.IntN(len(regions))]...)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(1+rng.IntN(100)), 10)
		b = append(b, ',')
		b = strconv.AppendFloat(b, float64(100+rng.IntN(9900))/100, 'f', 2, 64)
		b = append(b, '\n')
		if _, err := w.Write(b); err != nil {
			return err
		}
		if i%every == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			mcptool.Progress(ctx, float64(i), float64(rows), fmt.Sprintf("%d of %d rows written", i, rows))
		}
	}
	return nil
}
