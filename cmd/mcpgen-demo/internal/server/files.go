package server

import (
	"context"

	"github.com/mcpgen/mcpgen/mcptool"
	"github.com/mcpgen/mcpgen/mcptool/safety"
)

// Files is the files folder of the data directory, the only place
// analyze_csv reads and delete_file deletes: paths are confined to it with
// os.Root, so neither ".." nor a symlink leads out.
type Files struct {
	root          *safety.Root
	progressEvery int // analyze_csv reports progress every this many rows
}

// DeleteFileArgs are the arguments of delete_file.
type DeleteFileArgs struct {
	_ struct{} `mcp:"title=Delete File,readOnly=false,destructive,idempotent,openWorld=false"`
	// The file to delete, relative to the data directory's files folder, e.g. "scratch/draft.txt";
	// absolute paths and paths that leave the folder are refused.
	Path string `json:"path" jsonschema:"example=scratch/draft.txt" validate:"required,min=1,max=1024"`
}

// DeletedFile is the file delete_file deleted.
type DeletedFile struct {
	// The deleted file's path, as given.
	Path string `json:"path"`
	// True: the file is gone.
	Deleted bool `json:"deleted"`
	// How many bytes the file had.
	Size int64 `json:"size"`
}

// DeleteFile deletes a file from the server's data directory (its files
// folder; nothing outside it). Directories are not deleted, and a file that
// does not exist is an error: deleting it again changes nothing.
//
// Example: {"path": "scratch/draft.txt"} returns {"path": "scratch/draft.txt",
// "deleted": true, "size": 69}.
func (f *Files) DeleteFile(_ context.Context, in DeleteFileArgs) (DeletedFile, error) {
	fi, err := f.root.Stat(in.Path)
	if err != nil {
		return DeletedFile{}, err
	}
	if fi.IsDir() {
		return DeletedFile{}, mcptool.Errorf("%q is a directory; delete_file deletes files only", in.Path)
	}
	if err := f.root.Remove(in.Path); err != nil {
		return DeletedFile{}, err
	}
	return DeletedFile{Path: in.Path, Deleted: true, Size: fi.Size()}, nil
}
