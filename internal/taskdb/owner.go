package taskdb

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
)

// An owner is the process that made a copy: a copy whose owner is gone was left by a
// run that died before dropping it. The process id alone is not enough, since the
// system reuses ids; the process's start time (Linux: /proc/PID/stat) tells a reused
// id from the owner.
type owner struct {
	Host  string // hostTag of the host name
	PID   int
	Start string // the process's start time in clock ticks since boot; "" where unknown
}

// self is this process as an owner.
func self() owner {
	host, _ := os.Hostname()
	return owner{Host: hostTag(host), PID: os.Getpid(), Start: startTime(os.Getpid())}
}

// hostTag is a short, name-safe stand-in for a host name: 6 hex digits of its hash.
func hostTag(host string) string {
	h := sha256.Sum256([]byte(host))
	return hex.EncodeToString(h[:3])
}

// tag is the owner written into a copy's name, so a copy is marked the moment it
// exists (no second statement that a kill could come before): HOST_PID_START.
func (o owner) tag() string {
	start := o.Start
	if start == "" {
		start = "0"
	}
	return fmt.Sprintf("%s_%d_%s", o.Host, o.PID, start)
}

// parseTag reads an owner tag at the start of s (what follows it, after an
// underscore, is rest); ok is false when s does not start with one.
func parseTag(s string) (o owner, rest string, ok bool) {
	f := strings.SplitN(s, "_", 4)
	if len(f) < 3 || len(f[0]) != 6 {
		return owner{}, "", false
	}
	if _, err := hex.DecodeString(f[0]); err != nil {
		return owner{}, "", false
	}
	pid, err := strconv.Atoi(f[1])
	if err != nil || pid <= 0 {
		return owner{}, "", false
	}
	if _, err := strconv.ParseUint(f[2], 10, 64); err != nil {
		return owner{}, "", false
	}
	o = owner{Host: f[0], PID: pid, Start: f[2]}
	if o.Start == "0" {
		o.Start = ""
	}
	if len(f) == 4 {
		rest = f[3]
	}
	return o, rest, true
}

// gone reports whether the owner has certainly stopped: on this host, and its process
// id is free or now belongs to a process started at another time. An owner on another
// host is never gone: this process cannot tell.
func (o owner) gone() bool {
	if host, _ := os.Hostname(); o.Host != hostTag(host) {
		return false
	}
	if err := syscall.Kill(o.PID, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	if o.Start == "" {
		return false
	}
	now := startTime(o.PID)
	return now != "" && now != o.Start
}

// startTime is field 22 of /proc/PID/stat, the process's start in ticks since boot; ""
// when it cannot be read. The command name (field 2) may hold spaces and parentheses, so
// fields are counted after its last ')'.
func startTime(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return ""
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 { // state is field 3, start time field 22
		return ""
	}
	return f[19]
}

// nameSeq numbers the copies and builds of this process, across every Postgres, MySQL
// and SQLite it opens: two of them on one server (two runs in one process, parallel
// tests) must not name a copy alike.
var nameSeq atomic.Int64
