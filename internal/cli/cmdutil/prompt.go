package cmdutil

import (
	"fmt"
	"os"
	"strings"

	"golang.org/x/term"

	"github.com/storectl/storectl/internal/iostreams"
)

// PromptSecret reads a line without echoing it (tokens). It needs stdin to
// be a terminal; callers check CanPrompt first.
func PromptSecret(ios *iostreams.IOStreams, prompt string) (string, error) {
	fmt.Fprint(ios.ErrOut, prompt)
	f, ok := ios.In.(*os.File)
	if !ok {
		return readLine(ios)
	}
	b, err := term.ReadPassword(int(f.Fd()))
	fmt.Fprintln(ios.ErrOut)
	if err != nil {
		return "", fmt.Errorf("cannot read from the terminal: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

// PromptLine reads a visible line; an empty answer gives def.
func PromptLine(ios *iostreams.IOStreams, prompt, def string) (string, error) {
	if def != "" {
		prompt = fmt.Sprintf("%s [%s]", prompt, def)
	}
	fmt.Fprint(ios.ErrOut, prompt+": ")
	line, err := readLine(ios)
	if err != nil {
		return "", err
	}
	if line == "" {
		return def, nil
	}
	return line, nil
}

// readLine reads byte by byte so that nothing after the newline is consumed
// from the shared input (a second prompt, or piped data, still finds it).
func readLine(ios *iostreams.IOStreams) (string, error) {
	var line []byte
	b := make([]byte, 1)
	for {
		n, err := ios.In.Read(b)
		if n == 1 {
			if b[0] == '\n' {
				break
			}
			line = append(line, b[0])
		}
		if err != nil {
			if len(line) == 0 {
				return "", fmt.Errorf("no answer: %w", err)
			}
			break
		}
	}
	return strings.TrimSpace(string(line)), nil
}
