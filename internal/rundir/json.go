package rundir

import (
	"encoding/json"
	"fmt"

	"github.com/nl2sqlbench/nl2sqlbench/internal/jsonscan"
)

// jsonUnmarshal decodes b, naming the line of a syntax or type error.
func jsonUnmarshal(b []byte, v any) error {
	if err := json.Unmarshal(b, v); err != nil {
		if line := jsonscan.ErrorLine(b, err); line > 0 {
			return fmt.Errorf("line %d: %w", line, err)
		}
		return err
	}
	return nil
}
