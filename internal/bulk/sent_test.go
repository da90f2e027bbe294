package bulk

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/storectl/storectl/internal/httpx"
)

// A run interrupted while its request waits for the pace (Send returns the
// cancellation before anything left) records nothing as sent, and says
// that nothing was sent rather than "nothing to do".
func TestRunInterruptedBeforeTheRequestLeftRecordsNothingSent(t *testing.T) {
	w := newWorld(t, JournalOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err := w.runner.Run(ctx, 2, func(yield func(*Item) error) error {
		return yield(&Item{Row: 1, Key: RowKey(1), Name: "rule", Send: func(ctx context.Context) (Done, error) {
			cancel() // Ctrl-C during the wait for the pace
			<-ctx.Done()
			return Done{}, ctx.Err()
		}})
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if data, _ := os.ReadFile(w.journal); strings.Contains(string(data), "pending") {
		t.Errorf("the journal says a request that never left was sent:\n%s", data)
	}
	if got := w.errOut.String(); !strings.Contains(got, "stopped after 0 of 2 rules: nothing was sent\n") {
		t.Errorf("summary:\n%s", got)
	}
}

// A request that goes through the transport is journaled as pending as it
// leaves: before the server can answer.
func TestRunJournalsTheRequestAsItLeaves(t *testing.T) {
	w := newWorld(t, JournalOptions{})
	var atArrival string
	srv := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		data, _ := os.ReadFile(w.journal)
		atArrival = string(data)
		rw.Header().Set("Content-Type", "application/json")
		_, _ = rw.Write([]byte(`{}`))
	}))
	defer srv.Close()
	client, err := httpx.New(httpx.Config{BaseURL: srv.URL, Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	err = w.runner.Run(context.Background(), 1, func(yield func(*Item) error) error {
		return yield(&Item{Row: 1, Key: RowKey(1), Name: "rule", Send: func(ctx context.Context) (Done, error) {
			_, err := client.Do(ctx, httpx.Request{Method: http.MethodPost, Path: "/create", Body: []byte(`{}`)})
			return Done{Outcome: Created, ID: "7"}, err
		}})
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(atArrival, "1,"+RowKey(1)+",pending,,sent at 2026-11-24T09:00:00Z") {
		t.Errorf("when the request arrived the journal held:\n%s", atArrival)
	}
}
