package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// clientVersion is the protocol revision the session and stdio clients
// ask for in initialize.
const clientVersion = "2025-11-25"

// initialize is the first request of a session or a stdio connection.
const initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + clientVersion +
	`","capabilities":{},"clientInfo":{"name":"series","version":"1.0.0"}}}`

// initialized is the notification that follows initialize's answer.
const initialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

// sessionCall is calculate_sum's tools/call with id ID, in a session or
// over stdio: no per-request _meta.
func sessionCall(buf []byte, id int64) []byte {
	buf = append(buf, `{"jsonrpc":"2.0","id":`...)
	buf = strconv.AppendInt(buf, id, 10)
	return append(buf, `,"method":"tools/call","params":{"name":"calculate_sum","arguments":{"a":1,"b":2}}}`...)
}

// measureSession starts the server bin serving 2025-11-25 sessions, has
// each of c workers open its own session, loads the server for d, and
// stops it.
func measureSession(bin string, c int, d time.Duration) (result, error) {
	srv, err := startHTTP(bin, "session")
	if err != nil {
		return result{}, err
	}
	defer srv.stop()
	client := httpClient(c)
	defer client.CloseIdleConnections()
	sessions := make([]*session, c)
	for w := range sessions {
		if sessions[w], err = openSession(client, srv.url); err != nil {
			return result{}, fmt.Errorf("session %d: %w", w, err)
		}
	}
	return closedLoop(srv.cmd.Process.Pid, c, d, func(w int) func() error {
		return sessions[w].call
	})
}

// session is a client's 2025-11-25 session with the server at url.
type session struct {
	client  *http.Client
	url     string
	id      string // Mcp-Session-Id
	version string // the protocol revision the server chose
	next    int64  // the next request's id
}

// openSession sends initialize and notifications/initialized.
func openSession(client *http.Client, url string) (*session, error) {
	s := &session{client: client, url: url, next: 1}
	resp, body, err := s.post(initialize)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("initialize: %s: %s", resp.Status, body)
	}
	if s.id = resp.Header.Get("Mcp-Session-Id"); s.id == "" {
		return nil, fmt.Errorf("initialize: no Mcp-Session-Id: %s", body)
	}
	var init struct {
		Result struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"result"`
	}
	if err := json.Unmarshal(message(resp, body), &init); err != nil || init.Result.ProtocolVersion == "" {
		return nil, fmt.Errorf("initialize: %v: %s", err, body)
	}
	s.version = init.Result.ProtocolVersion
	resp, body, err = s.post(initialized)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("notifications/initialized: %s: %s", resp.Status, body)
	}
	return s, nil
}

// call sends a tools/call in the session and checks the answer.
func (s *session) call() error {
	body := string(sessionCall(nil, s.next))
	s.next++
	resp, data, err := s.post(body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK || !bytes.Contains(data, []byte(want)) {
		return fmt.Errorf("%s: %s", resp.Status, data)
	}
	return nil
}

// post sends body in the session and reads the whole answer.
func (s *session) post(body string) (*http.Response, []byte, error) {
	req, err := http.NewRequest(http.MethodPost, s.url, strings.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if s.id != "" {
		req.Header.Set("Mcp-Session-Id", s.id)
		req.Header.Set("Mcp-Protocol-Version", s.version)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp, data, err
}

// message is the JSON-RPC message of an answer: the body, or the data of
// its first SSE event that has any.
func message(resp *http.Response, body []byte) []byte {
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return body
	}
	for line := range bytes.Lines(body) {
		if data, ok := bytes.CutPrefix(line, []byte("data:")); ok && len(bytes.TrimSpace(data)) > 0 {
			return bytes.TrimSpace(data)
		}
	}
	return body
}
