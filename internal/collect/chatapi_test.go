package collect

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// TestWireRequest: the body is the chat-completions JSON, with unset options left out
// (a server applies its own defaults) and the options set sent under their API names.
func TestWireRequest(t *testing.T) {
	temp, seed := 0.0, int64(7)
	tests := []struct {
		name string
		req  ChatRequest
		want map[string]any // keys that must be present with these values
		not  []string       // keys that must be absent
	}{
		{"defaults", ChatRequest{Messages: []Message{{Role: "user", Content: "q"}}, N: 1},
			map[string]any{"model": "fake-model"}, []string{"temperature", "top_p", "max_tokens", "n", "seed", "part"}},
		{"options", ChatRequest{Messages: []Message{{Role: "system", Content: "s"}, {Role: "user", Content: "q"}}, Temperature: &temp, MaxTokens: 50, N: 3, Seed: &seed, Part: 2},
			map[string]any{"temperature": 0.0, "max_tokens": 50.0, "n": 3.0, "seed": 7.0}, []string{"top_p", "part"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got map[string]any
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
					t.Errorf("%s %s", r.Method, r.URL.Path)
				}
				if err := json.NewDecoder(r.Body).Decode(&got); err != nil {
					t.Error(err)
				}
				_, _ = w.Write([]byte(`{"choices":[{"message":{"content":"SELECT 1"}}],"usage":{"prompt_tokens":2,"completion_tokens":1}}`))
			}))
			defer srv.Close()
			c, _ := testClient(t, srv.URL+"/v1/", nil)
			resp, err := c.Chat(context.Background(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if resp.TotalTokens != 3 || resp.Choices[0] != "SELECT 1" {
				t.Errorf("response %+v", resp)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("%s = %v, want %v (body %v)", k, got[k], v, got)
				}
			}
			for _, k := range tt.not {
				if _, ok := got[k]; ok {
					t.Errorf("%s sent: %v", k, got)
				}
			}
			if msgs, _ := got["messages"].([]any); len(msgs) != len(tt.req.Messages) {
				t.Errorf("messages %v", got["messages"])
			}
		})
	}
}

// TestResponseCap: an endpoint that sends more than maxResponseBytes gets a malformed-
// response error, once (asking again would get the same), never an unbounded read.
func TestResponseCap(t *testing.T) {
	requests := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++
		_, _ = w.Write([]byte(`{"choices":[{"message":{"content":"`))
		chunk := []byte(strings.Repeat("x", 1<<20))
		for i := 0; i <= maxResponseBytes>>20; i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	// 33 MB through loopback can outlast the helper's 2 s on busy cores; a timeout would be
	// retried and hide what is tested here.
	c, _ := testClient(t, srv.URL, func(cfg *LLMConfig) { cfg.Timeout = Duration{time.Minute} })
	_, err := c.Chat(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "q"}}})
	if !errors.Is(err, ErrLLM) || !strings.Contains(err.Error(), "over") {
		t.Fatalf("err = %v, want a refusal of the oversized response", err)
	}
	if requests != 1 {
		t.Errorf("%d requests, want 1 (an oversized answer is not retried)", requests)
	}
}

// Issue 45, failure 11: a server reporting int64's max tokens wrapped collect's totals to
// a negative number. Such a response is refused, naming the counts, and not asked again.
func TestUsageOutOfRangeRefused(t *testing.T) {
	requests := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests++
		_, _ = w.Write([]byte(`{"choices":[{"message":{"content":"SELECT 1"}}],"usage":{"prompt_tokens":9223372036854775807,"completion_tokens":1}}`))
	}))
	defer srv.Close()
	c, _ := testClient(t, srv.URL+"/v1/", nil)
	_, err := c.Chat(context.Background(), ChatRequest{Messages: []Message{{Role: "user", Content: "q"}}, N: 1})
	if !errors.Is(err, ErrLLM) || !strings.Contains(err.Error(), "9223372036854775807") || !strings.Contains(err.Error(), "2^53") {
		t.Errorf("err = %v", err)
	}
	if requests != 1 {
		t.Errorf("%d requests: an out-of-range count was asked again", requests)
	}
}

// Attack: totals over many records each at the largest count saturate, never wrap.
func TestSummaryTotalsSaturate(t *testing.T) {
	s := &Summary{Modules: map[string]*ModuleTotals{}}
	var recs []predict.ModuleRecord
	for range 2000 {
		var r predict.ModuleRecord
		r.NodeType = predict.NodeCandidateGeneration
		r.PromptTokens, r.CompletionTokens, r.TotalTokens = predict.CountOf(record.MaxCount), predict.CountOf(record.MaxCount), predict.CountOf(record.MaxCount)
		recs = append(recs, r)
	}
	s.addRecords(recs)
	m := s.Modules[predict.NodeCandidateGeneration]
	for _, n := range []int{s.PromptTokens, s.CompletionTokens, s.TotalTokens, m.TotalTokens} {
		if n != record.MaxCount {
			t.Errorf("total %d, want saturation at %d", n, record.MaxCount)
		}
	}
}
