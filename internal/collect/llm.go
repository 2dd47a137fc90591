package collect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Sentinel errors of the LLM client.
var (
	ErrNoAPIKey    = errors.New("API key environment variable is not set")
	ErrLLM         = errors.New("LLM request failed")
	ErrBadResponse = errors.New("malformed LLM response")
)

// Message is one chat message.
type Message struct {
	Role    string `json:"role"` // system, user or assistant
	Content string `json:"content"`
}

// ChatRequest is one chat-completions request; the model comes from the client.
type ChatRequest struct {
	Messages    []Message `json:"messages"`
	Temperature *float64  `json:"temperature,omitempty"`
	TopP        *float64  `json:"top_p,omitempty"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	N           int       `json:"n,omitempty"`
	Seed        *int64    `json:"seed,omitempty"`
	// Part tells apart repeated requests for more samples when a server returns fewer
	// choices than n asked for; it is never sent, only part of the cache key.
	Part int `json:"part,omitempty"`
}

// ChatResponse is what a request returned.
type ChatResponse struct {
	Choices          []string `json:"choices"`
	PromptTokens     int      `json:"prompt_tokens"`
	CompletionTokens int      `json:"completion_tokens"`
	TotalTokens      int      `json:"total_tokens"`
	LatencyMS        int64    `json:"latency_ms"`
	Cached           bool     `json:"-"` // served from the response cache
}

// LLM answers chat requests.
type LLM interface {
	Chat(ctx context.Context, req ChatRequest) (*ChatResponse, error)
}

// ClientStats counts what a client did.
type ClientStats struct {
	Requests atomic.Int64 // HTTP requests sent, retries included
	Retries  atomic.Int64
}

// OpenAIClient calls an OpenAI-compatible chat-completions endpoint (OpenAI, DeepSeek,
// vLLM, Ollama, llama.cpp's server...) with its own retry policy: 429, 5xx, timeouts,
// network errors and malformed bodies are retried with exponential backoff and full
// jitter, honouring Retry-After; concurrency and requests per minute are bounded.
type OpenAIClient struct {
	cfg   LLMConfig
	key   string
	url   string // the endpoint's chat/completions URL
	http  *http.Client
	sem   chan struct{}
	rate  *Limiter
	Stats ClientStats
	// sleep waits d or until ctx ends; tests replace it to record waits.
	sleep func(ctx context.Context, d time.Duration) error
}

// NewOpenAIClient builds a client for cfg; the API key is read from the environment
// variable cfg.APIKeyEnv names. httpClient may be nil.
func NewOpenAIClient(cfg LLMConfig, getenv func(string) string, httpClient *http.Client) (*OpenAIClient, error) {
	key := getenv(cfg.APIKeyEnv)
	if key == "" {
		return nil, fmt.Errorf("%s: %w (set it; local servers accept any value)", cfg.APIKeyEnv, ErrNoAPIKey)
	}
	if httpClient == nil {
		httpClient = &http.Client{}
	}
	conc := max(cfg.Concurrency, 1)
	return &OpenAIClient{
		cfg:   cfg,
		key:   key,
		url:   strings.TrimRight(cfg.BaseURL, "/") + "/chat/completions",
		http:  httpClient,
		sem:   make(chan struct{}, conc),
		rate:  NewLimiter(cfg.RequestsPerMinute),
		sleep: sleepCtx,
	}, nil
}

// Chat sends req, retrying transient failures. Errors never carry the API key.
func (c *OpenAIClient) Chat(ctx context.Context, req ChatRequest) (*ChatResponse, error) {
	body, err := json.Marshal(wireRequest{Model: c.cfg.Model, Messages: req.Messages, Temperature: req.Temperature,
		TopP: req.TopP, MaxTokens: max(req.MaxTokens, 0), N: nIfMany(req.N), Seed: req.Seed})
	if err != nil {
		return nil, fmt.Errorf("%w: encode request: %v", ErrLLM, err)
	}
	retries := 0
	if c.cfg.MaxRetries != nil {
		retries = *c.cfg.MaxRetries
	}
	var last error
	for attempt := 0; ; attempt++ {
		resp, wait, err := c.once(ctx, body)
		if err == nil {
			return resp, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		last = c.redact(err)
		if wait < 0 || attempt >= retries {
			break
		}
		if wait == 0 {
			wait = c.backoff(attempt)
		}
		c.Stats.Retries.Add(1)
		if err := c.sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("%w: %v", ErrLLM, last)
}

func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusRequestTimeout || status >= 500
}

// retryAfter reads a Retry-After header (seconds or an HTTP date), capped at limit; 0 when
// absent or unreadable.
func retryAfter(header http.Header, limit time.Duration) time.Duration {
	h := strings.TrimSpace(header.Get("Retry-After"))
	if h == "" {
		return 0
	}
	var d time.Duration
	if secs, err := strconv.ParseFloat(h, 64); err == nil && secs >= 0 {
		d = time.Duration(secs * float64(time.Second))
	} else if t, err := http.ParseTime(h); err == nil {
		d = time.Until(t)
	}
	if d <= 0 {
		return 0
	}
	return min(d, limit)
}

// backoff is exponential with full jitter: uniform in [0, min(max, base*2^attempt)].
func (c *OpenAIClient) backoff(attempt int) time.Duration {
	ceil := c.cfg.RetryBase.Duration << min(attempt, 20)
	if ceil <= 0 || ceil > c.cfg.RetryMax.Duration {
		ceil = c.cfg.RetryMax.Duration
	}
	return time.Duration(rand.Int64N(int64(ceil) + 1))
}

// redact removes the API key from an error's text, wherever an endpoint may have echoed it.
func (c *OpenAIClient) redact(err error) error {
	if err == nil || c.key == "" || !strings.Contains(err.Error(), c.key) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), c.key, "[redacted]"))
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Limiter spaces requests evenly to stay under a requests-per-minute limit.
type Limiter struct {
	mu       sync.Mutex
	interval time.Duration
	next     time.Time
}

// NewLimiter allows rpm requests a minute (no limit when rpm <= 0).
func NewLimiter(rpm float64) *Limiter {
	if rpm <= 0 {
		return &Limiter{}
	}
	return &Limiter{interval: time.Duration(float64(time.Minute) / rpm)}
}

func (l *Limiter) Wait(ctx context.Context) error {
	if l.interval == 0 {
		return nil
	}
	l.mu.Lock()
	now := time.Now()
	at := l.next
	if at.Before(now) {
		at = now
	}
	l.next = at.Add(l.interval)
	l.mu.Unlock()
	if d := time.Until(at); d > 0 {
		return sleepCtx(ctx, d)
	}
	return nil
}
