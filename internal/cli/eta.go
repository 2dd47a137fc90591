package cli

import (
	"fmt"
	"time"
)

// formatLeft prints a time left as people read it: 45s, 3m05s, 1h20m.
func formatLeft(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
	return fmt.Sprintf("%dh%02dm", s/3600, (s%3600)/60)
}

// formatRate prints items per second with the precision it deserves.
func formatRate(r float64) string {
	switch {
	case r >= 10:
		return fmt.Sprintf("%.0f/s", r)
	case r >= 1:
		return fmt.Sprintf("%.1f/s", r)
	}
	return fmt.Sprintf("%.2f/s", r)
}
