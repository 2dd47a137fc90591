package collect

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// The chat-completions wire format, written by hand: one POST and its JSON are all the
// tool uses of the API, and a client library cost 13 MB of binary and minutes of build
// (docs/development.md).

// maxResponseBytes caps a response body: an endpoint is not trusted to stop sending.
const maxResponseBytes = 32 << 20

// wireRequest is the request body. Fields at their zero value are left out, as the
// official clients leave them out, so a server applies its own defaults.
type wireRequest struct {
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	Temperature *float64  `json:"temperature,omitempty"`
	TopP        *float64  `json:"top_p,omitempty"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	N           int       `json:"n,omitempty"`
	Seed        *int64    `json:"seed,omitempty"`
}

type wireResponse struct {
	Choices []struct {
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		TotalTokens      int `json:"total_tokens"`
	} `json:"usage"`
}

// wireError is the body of a failed request ({"error": {"message": ...}}).
type wireError struct {
	Error struct {
		Message string `json:"message"`
	} `json:"error"`
}

// nIfMany sends n only when more than one choice is wanted.
func nIfMany(n int) int {
	if n > 1 {
		return n
	}
	return 0
}

// once sends one HTTP request. wait is how long to wait before retrying: 0 means "back
// off", a positive value is the server's Retry-After, and -1 means "do not retry".
func (c *OpenAIClient) once(ctx context.Context, body []byte) (*ChatResponse, time.Duration, error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, -1, ctx.Err()
	}
	defer func() { <-c.sem }()
	if err := c.rate.Wait(ctx); err != nil {
		return nil, -1, err
	}
	actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout.Duration)
	defer cancel()
	c.Stats.Requests.Add(1)
	start := time.Now()
	status, header, data, err := c.post(actx, body)
	latency := time.Since(start)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return nil, -1, ctx.Err()
		case actx.Err() != nil:
			return nil, 0, fmt.Errorf("no response within %v", c.cfg.Timeout.Duration)
		case errors.Is(err, ErrBadResponse):
			return nil, -1, err // over the size cap: asking again gets the same
		}
		return nil, 0, err // a network error: transient as far as we can tell
	}
	if status < 200 || status > 299 {
		msg := fmt.Sprintf("HTTP %d", status)
		var we wireError
		if json.Unmarshal(data, &we) == nil {
			if m := strings.TrimSpace(we.Error.Message); m != "" {
				msg += ": " + truncate(m, 300)
			}
		}
		if retryable(status) {
			return nil, retryAfter(header, c.cfg.RetryMax.Duration), errors.New(msg)
		}
		return nil, -1, errors.New(msg)
	}
	var out wireResponse
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, 0, fmt.Errorf("%w: %v", ErrBadResponse, err) // a cut-off body: retried
	}
	if len(out.Choices) == 0 {
		return nil, 0, fmt.Errorf("%w: no choices", ErrBadResponse)
	}
	u := out.Usage
	for _, n := range []int{u.PromptTokens, u.CompletionTokens, u.TotalTokens} {
		if n < 0 || n > record.MaxCount {
			// Not retried: the server would say the same again.
			return nil, -1, fmt.Errorf("%w: usage {prompt_tokens %d, completion_tokens %d, total_tokens %d}: a count outside 0..2^53 (%d)",
				ErrBadResponse, u.PromptTokens, u.CompletionTokens, u.TotalTokens, record.MaxCount)
		}
	}
	r := &ChatResponse{
		PromptTokens:     out.Usage.PromptTokens,
		CompletionTokens: out.Usage.CompletionTokens,
		TotalTokens:      out.Usage.TotalTokens,
		LatencyMS:        latency.Milliseconds(),
	}
	if r.TotalTokens == 0 {
		r.TotalTokens = record.AddCount(r.PromptTokens, r.CompletionTokens)
	}
	for _, ch := range out.Choices {
		r.Choices = append(r.Choices, ch.Message.Content)
	}
	return r, 0, nil
}

// post sends body to the endpoint and reads the whole answer, at most maxResponseBytes.
func (c *OpenAIClient) post(ctx context.Context, body []byte) (int, http.Header, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.key)
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return 0, nil, nil, fmt.Errorf("read response: %w", err)
	}
	if len(data) > maxResponseBytes {
		return 0, nil, nil, fmt.Errorf("%w: response over %d bytes", ErrBadResponse, maxResponseBytes)
	}
	return resp.StatusCode, resp.Header, data, nil
}
