// Package typo guesses what a mistyped name meant, and says it the one way
// storectl offers such guesses.
package typo

import (
	"fmt"
	"strings"
)

// Suggest returns the candidate typed most likely meant: the only one it
// begins (at least three letters of it: "price-asc" for price-ascending),
// else the closest when close enough to be a typo (at most a third of its
// letters off, and at most 3); "" when none is.
func Suggest(typed string, candidates []string) string {
	if guess := uniquePrefix(typed, candidates); guess != "" {
		return guess
	}
	best, bestDist := "", min(3, max(1, len(typed)/3))+1
	for _, c := range candidates {
		if d := EditDistance(typed, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

func uniquePrefix(typed string, candidates []string) string {
	if len(typed) < 3 {
		return ""
	}
	found := ""
	for _, c := range candidates {
		if strings.HasPrefix(c, typed) && c != typed {
			if found != "" {
				return ""
			}
			found = c
		}
	}
	return found
}

// DidYouMean is the one way storectl offers what a mistyped command, flag,
// profile or value likely meant: "did you mean `--page`?", then hint in
// parentheses. form writes the guess as it would be typed ("--page",
// "storectl bis list", "-p us"). Without a likely guess it is hint.
func DidYouMean(typed string, candidates []string, form func(string) string, hint string) string {
	guess := Suggest(typed, candidates)
	if guess == "" {
		return hint
	}
	s := fmt.Sprintf("did you mean `%s`?", form(guess))
	if hint != "" {
		s += " (" + hint + ")"
	}
	return s
}

// EditDistance is the optimal string alignment distance, by rune: the
// Levenshtein distance, with two neighbours swapped counting as one edit
// ("xslx" is one from "xlsx").
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	rows := make([][]int, len(ra)+1)
	for i := range rows {
		rows[i] = make([]int, len(rb)+1)
		rows[i][0] = i
	}
	for j := range rows[0] {
		rows[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d := min(rows[i-1][j]+1, rows[i][j-1]+1, rows[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d = min(d, rows[i-2][j-2]+1)
			}
			rows[i][j] = d
		}
	}
	return rows[len(ra)][len(rb)]
}
