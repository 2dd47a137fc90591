package engine

import "context"

// OnCancel arranges for kill to run once if ctx ends while a statement is on a server,
// and returns stop, to be called when the statement has returned. stop returns only
// after a started kill has finished, and it runs kill itself when ctx has ended but kill
// has not started. context.AfterFunc alone left two holes, each of which let a cancelled
// MariaDB statement run on for minutes (holding a core and its table's locks):
//   - the driver drops its connection as soon as ctx ends, so the statement returns and
//     its stop can run before AfterFunc has started kill; stop then cancels the kill, and
//     the server, which never learns of the drop, goes on;
//   - a kill still running when stop returns can reach the session after it has gone
//     back to its pool (or, for a task's session, after its next statement began).
func OnCancel(ctx context.Context, kill func()) (stop func()) {
	done := make(chan struct{})
	run := func() {
		defer close(done)
		kill()
	}
	stopAfter := context.AfterFunc(ctx, run)
	return func() {
		if stopAfter() { // kill has not started, and now never will by itself
			if ctx.Err() != nil {
				run()
			}
			return
		}
		<-done
	}
}
