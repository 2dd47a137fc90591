package buildid

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// fileKey is the identity of the file at path: its absolute path, device, inode, size,
// and modification and change times in nanoseconds ("" when it cannot be read). Writing
// to the file or replacing it changes the change time, which no user can set back.
func fileKey(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return ""
	}
	return statKey(abs, fi)
}

// fileKeyOf is fileKey of an open file.
func fileKeyOf(f *os.File) string {
	abs, err := filepath.Abs(f.Name())
	if err != nil {
		return ""
	}
	fi, err := f.Stat()
	if err != nil {
		return ""
	}
	return statKey(abs, fi)
}

func statKey(abs string, fi os.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || !fi.Mode().IsRegular() {
		return ""
	}
	return fmt.Sprintf("v1\x00%s\x00%d\x00%d\x00%d\x00%d.%d\x00%d.%d", abs, st.Dev, st.Ino, st.Size,
		st.Mtim.Sec, st.Mtim.Nsec, st.Ctim.Sec, st.Ctim.Nsec)
}
