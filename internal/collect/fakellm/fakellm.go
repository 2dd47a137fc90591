// Package fakellm is a scripted OpenAI-compatible chat-completions server for tests: a
// test decides each reply (choices, usage, delay, an HTTP error with Retry-After, or a
// malformed body) from the request, and reads back every request the server saw. It runs
// on loopback (net/http/httptest), so tests never need a network.
package fakellm

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Message is one chat message of a request.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is what the client sent.
type Request struct {
	Model         string    `json:"model"`
	Messages      []Message `json:"messages"`
	N             int       `json:"n"`
	Temperature   *float64  `json:"temperature"`
	TopP          *float64  `json:"top_p"`
	MaxTokens     int       `json:"max_tokens"`
	Seed          *int64    `json:"seed"`
	Authorization string    `json:"-"`
	Body          string    `json:"-"`
	Attempt       int       `json:"-"` // 1 for the first time this body was seen, 2 for its first retry...
}

// Prompt is the text of the last user message.
func (r Request) Prompt() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// Reply is what the server answers.
type Reply struct {
	Status     int           // HTTP status; 0 means 200
	RetryAfter string        // Retry-After header, if any
	Error      string        // error message for a non-200 status
	Raw        string        // a raw body, sent as is (e.g. malformed JSON)
	Choices    []string      // the completions; N asked but fewer given is the client's problem
	Prompt     int           // usage.prompt_tokens; -1 omits usage
	Completion int           // usage.completion_tokens
	Delay      time.Duration // wait before answering (aborted when the client goes away)
}

// Server is a running fake endpoint. BaseURL ends in /v1.
type Server struct {
	srv     *httptest.Server
	BaseURL string

	mu       sync.Mutex
	script   func(Request) Reply
	requests []Request
	seen     map[string]int
	max      int
}

// New starts a server answering with script. At most maxRequests requests are answered
// (0: 10,000); later ones get HTTP 500 and Overflowed reports them, so a runaway client
// loop fails the test instead of spinning.
func New(script func(Request) Reply, maxRequests int) *Server {
	if maxRequests <= 0 {
		maxRequests = 10000
	}
	s := &Server{script: script, seen: map[string]int{}, max: maxRequests}
	s.srv = httptest.NewServer(http.HandlerFunc(s.handle))
	s.BaseURL = s.srv.URL + "/v1"
	return s
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Requests returns a copy of the requests seen so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Overflowed reports whether more than maxRequests requests arrived.
func (s *Server) Overflowed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests) > s.max
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.Error(w, `{"error":{"message":"not found"}}`, http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "read body", http.StatusBadRequest)
		return
	}
	var req Request
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, `{"error":{"message":"bad json"}}`, http.StatusBadRequest)
		return
	}
	req.Authorization = r.Header.Get("Authorization")
	req.Body = string(body)
	s.mu.Lock()
	s.seen[req.Body]++
	req.Attempt = s.seen[req.Body]
	s.requests = append(s.requests, req)
	over := len(s.requests) > s.max
	script := s.script
	s.mu.Unlock()
	if over {
		writeError(w, http.StatusInternalServerError, "", "fakellm: request limit exceeded")
		return
	}
	rep := script(req)
	if rep.Delay > 0 {
		t := time.NewTimer(rep.Delay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	if rep.Status != 0 && rep.Status != http.StatusOK {
		writeError(w, rep.Status, rep.RetryAfter, rep.Error)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if rep.Raw != "" {
		io.WriteString(w, rep.Raw)
		return
	}
	type choice struct {
		Index        int     `json:"index"`
		Message      Message `json:"message"`
		FinishReason string  `json:"finish_reason"`
	}
	out := map[string]any{
		"id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": req.Model,
	}
	chs := []choice{}
	for i, c := range rep.Choices {
		chs = append(chs, choice{Index: i, Message: Message{Role: "assistant", Content: c}, FinishReason: "stop"})
	}
	out["choices"] = chs
	if rep.Prompt >= 0 {
		out["usage"] = map[string]int{"prompt_tokens": rep.Prompt, "completion_tokens": rep.Completion, "total_tokens": rep.Prompt + rep.Completion}
	}
	json.NewEncoder(w).Encode(out)
}

func writeError(w http.ResponseWriter, status int, retryAfter, msg string) {
	if retryAfter != "" {
		w.Header().Set("Retry-After", retryAfter)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if msg == "" {
		msg = http.StatusText(status)
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]string{"message": msg, "type": "fake_error"}})
	fmt.Fprintf(w, "%s", b)
}

// Words counts whitespace-separated words: a stand-in tokenizer for scripted usage.
func Words(s string) int { return len(strings.Fields(s)) }
