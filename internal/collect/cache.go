package collect

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/nl2sqlbench/nl2sqlbench/internal/safefile"
	"io"
	"os"
	"sync"
	"sync/atomic"
)

// Cache is an append-only response cache: one JSON line per answered request, keyed by a
// hash of the whole request (endpoint, model, messages, sampling parameters). Reruns read
// their answers from it, so they cost nothing and come out the same. A line torn by a
// crash is cut off when the cache is opened.
//
// Answers to a question's requests are held back (pendingAnswers) and written only after
// the question's records are: an answer whose handling failed, or crashed the process
// (an LLM reply holding a NUL byte once did), is asked again on the next run instead of
// being replayed, and failing, forever. The price is that a question interrupted or
// failed midway pays again for the calls it had made.
type Cache struct {
	mu   sync.Mutex
	f    *os.File
	m    map[string]*ChatResponse
	Hits atomic.Int64
}

// errStopCache ends the read of a cache at its first line that is not a whole answer.
var errStopCache = errors.New("stop")

type cacheLine struct {
	Key      string        `json:"key"`
	Response *ChatResponse `json:"response"`
}

// OpenCache opens (creating it if needed) the cache file at path.
func OpenCache(path string) (*Cache, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open cache: %w", err)
	}
	c := &Cache{f: f, m: map[string]*ChatResponse{}}
	// good: bytes up to the end of the last complete line; a line that is not a whole
	// answer ends the read, everything after it is suspect.
	var good int64
	_, err = safefile.ReadLines(f, 0, func(l safefile.Line) error {
		var cl cacheLine
		if err := json.Unmarshal(l.Bytes, &cl); err != nil || cl.Response == nil || cl.Key == "" {
			return errStopCache
		}
		c.m[cl.Key] = cl.Response
		good = l.End
		return nil
	})
	if err != nil && !errors.Is(err, errStopCache) && !errors.Is(err, safefile.ErrTornLine) && !errors.Is(err, safefile.ErrLineTooLong) {
		f.Close()
		return nil, fmt.Errorf("read cache: %w", err)
	}
	if fi, err := f.Stat(); err == nil && good < fi.Size() {
		if err := f.Truncate(good); err != nil {
			f.Close()
			return nil, fmt.Errorf("repair cache: %w", err)
		}
	}
	if _, err := f.Seek(int64(good), io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("open cache: %w", err)
	}
	return c, nil
}

// Len is the number of cached responses.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// Close closes the cache file.
func (c *Cache) Close() error { return c.f.Close() }

func (c *Cache) get(key string) (*ChatResponse, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.m[key]
	return r, ok
}

func (c *Cache) put(key string, r *ChatResponse) error {
	return c.putAll([]cacheLine{{Key: key, Response: r}})
}

// putAll appends lines to the file, synced once, then makes them visible.
func (c *Cache) putAll(lines []cacheLine) error {
	if len(lines) == 0 {
		return nil
	}
	var b []byte
	for _, l := range lines {
		lb, err := json.Marshal(l)
		if err != nil {
			return fmt.Errorf("encode cache line: %w", err)
		}
		b = append(append(b, lb...), '\n')
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.f.Write(b); err != nil {
		return fmt.Errorf("write cache: %w", err)
	}
	if err := c.f.Sync(); err != nil {
		return fmt.Errorf("sync cache: %w", err)
	}
	for _, l := range lines {
		c.m[l.Key] = l.Response
	}
	return nil
}

// pendingAnswers are the answers one question received, not yet in the cache. Safe for
// concurrent use.
type pendingAnswers struct {
	mu    sync.Mutex
	lines []cacheLine
}

func (p *pendingAnswers) get(key string) (*ChatResponse, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range p.lines {
		if l.Key == key {
			return l.Response, true
		}
	}
	return nil, false
}

func (p *pendingAnswers) add(key string, r *ChatResponse) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lines = append(p.lines, cacheLine{Key: key, Response: r})
}

// commit writes p's answers to the cache, once the question's records are written.
func (c *Cache) commit(p *pendingAnswers) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	err := c.putAll(p.lines)
	p.lines = nil
	return err
}

type pendingKey struct{}

// withPending makes cachedLLM hold the answers to requests made with ctx in p instead of
// caching them at once.
func withPending(ctx context.Context, p *pendingAnswers) context.Context {
	return context.WithValue(ctx, pendingKey{}, p)
}

// cachedLLM answers from the cache when it can and records every new answer.
type cachedLLM struct {
	inner   LLM
	cache   *Cache
	baseURL string
	model   string
}

func requestKey(baseURL, model string, req ChatRequest) string {
	b, _ := json.Marshal(struct {
		BaseURL string      `json:"base_url"`
		Model   string      `json:"model"`
		Req     ChatRequest `json:"request"`
	}{baseURL, model, req})
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func (c *cachedLLM) Chat(ctx context.Context, req ChatRequest) (*ChatResponse, error) {
	key := requestKey(c.baseURL, c.model, req)
	p, _ := ctx.Value(pendingKey{}).(*pendingAnswers)
	r, ok := c.cache.get(key)
	if !ok && p != nil {
		r, ok = p.get(key)
	}
	if ok {
		c.cache.Hits.Add(1)
		cp := *r
		cp.Cached = true
		return &cp, nil
	}
	r, err := c.inner.Chat(ctx, req)
	if err != nil {
		return nil, err
	}
	if p != nil {
		p.add(key, r)
		return r, nil
	}
	if err := c.cache.put(key, r); err != nil {
		return nil, err
	}
	return r, nil
}

// RequestKey is the cache key of req sent to model at baseURL: a sha256 of the whole
// request, so any change to the prompt or the sampling is a new key.
func RequestKey(baseURL, model string, req ChatRequest) string {
	return requestKey(baseURL, model, req)
}

// Lookup returns the cached answer under key, counting a hit.
func (c *Cache) Lookup(key string) (*ChatResponse, bool) {
	r, ok := c.get(key)
	if ok {
		c.Hits.Add(1)
	}
	return r, ok
}

// Store appends an answer to the cache, synced. Callers that may find an answer
// unusable (the LLM judge's parse) store only the ones they used, so a bad answer is
// asked again rather than replayed.
func (c *Cache) Store(key string, r *ChatResponse) error { return c.put(key, r) }
