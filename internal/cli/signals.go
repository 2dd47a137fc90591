package cli

import (
	"os"
	"os/signal"
	"syscall"
)

// StopSignals are the signals that stop a run as Ctrl-C does (the records kept, a resume
// hint printed); main and the tests that run this package as the command both use them.
// SIGTERM is what Slurm (scancel, requeue, time limit) and Kubernetes (pod eviction) send
// first. SIGHUP is a closed terminal or a dropped ssh session, unless the run was started
// under nohup, which ignores it: catching it would undo that.
func StopSignals() []os.Signal {
	sigs := []os.Signal{os.Interrupt, syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGHUP) {
		sigs = append(sigs, syscall.SIGHUP)
	}
	return sigs
}
