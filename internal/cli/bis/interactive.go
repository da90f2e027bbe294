package bis

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/storectl/storectl/internal/api/shop"
	"github.com/storectl/storectl/internal/bisform"
	"github.com/storectl/storectl/internal/cli/cmdutil"
	"github.com/storectl/storectl/internal/exitcode"
	"github.com/storectl/storectl/internal/iostreams"
	"github.com/storectl/storectl/internal/output"
)

// promptInput walks the form's visible fields, asking for each with its
// options and default (values already given as flags are the defaults), and
// checks every answer at once so a typo is asked again, not sent.
func promptInput(ios *iostreams.IOStreams, form *bisform.Form, in bisform.Input) (bisform.Input, error) {
	if !ios.CanPrompt() {
		return in, exitcode.UsageHint(errors.New("--interactive needs a terminal"),
			"pass the values with --email, --product-id, --variant-id and --field instead")
	}
	given := map[string]string{}
	var kept []bisform.Pair // pairs naming no field: Build reports them
	for _, p := range in.Fields {
		if f, err := form.Lookup(p.Key); err == nil && !bisform.IsCore(f) {
			given[f.ID] = p.Value
		} else {
			kept = append(kept, p)
		}
	}
	out := in
	out.Fields = kept
	fmt.Fprintln(ios.ErrOut, "Register a customer for back-in-stock news (Enter keeps the [default]).")
	for _, f := range form.Fields {
		if f.Hidden.Value {
			if v, ok := given[f.ID]; ok {
				out.Fields = append(out.Fields, bisform.Pair{Key: f.ID, Value: v})
			}
			continue
		}
		var err error
		switch f.Type {
		case shop.FieldSelectVariant:
			if out.ProductID, err = ask(ios, "Product id", out.ProductID, true, idCheck("product_id")); err != nil {
				return in, err
			}
			out.VariantID, err = ask(ios, "Variant id", out.VariantID, true, idCheck("variant_id"))
		case shop.FieldEmail:
			out.Email, err = ask(ios, bisform.Label(f), out.Email, true, problemCheck(bisform.CheckEmail))
		case shop.FieldPhone:
			out.Phone, err = ask(ios, bisform.Label(f)+" (+ and digits)", out.Phone, f.Required.Value, problemCheck(bisform.CheckPhone))
		default:
			var v string
			v, err = askCustom(ios, f, given)
			if v != "" {
				out.Fields = append(out.Fields, bisform.Pair{Key: f.ID, Value: v})
			}
		}
		if err != nil {
			return in, err
		}
	}
	return out, nil
}

func askCustom(ios *iostreams.IOStreams, f shop.FormField, given map[string]string) (string, error) {
	def, ok := given[f.ID]
	if !ok && f.DefaultValue != nil {
		def = *f.DefaultValue
	}
	label := bisform.Label(f)
	check := func(v string) (string, string) {
		v = pickOptions(f, v)
		norm, p := bisform.CheckValue(f, v)
		if p != nil {
			return "", p.Message + " (" + bisform.Describe(f) + ")"
		}
		return norm, ""
	}
	switch f.Type {
	case shop.FieldSelect, shop.FieldRadio, shop.FieldCheckbox:
		for i, o := range f.Options {
			fmt.Fprintf(ios.ErrOut, "  %d) %s\n", i+1, output.Sanitize(o))
		}
		if f.Type == shop.FieldCheckbox {
			label += " (numbers or names, comma-separated)"
		}
	case shop.FieldAcceptTerms:
		label += " (y/N)"
	}
	return ask(ios, label, def, f.Required.Value, check)
}

// pickOptions lets an answer name options by their number.
func pickOptions(f shop.FormField, answer string) string {
	if len(f.Options) == 0 {
		return answer
	}
	parts := strings.Split(answer, ",")
	for i, part := range parts {
		if n, err := strconv.Atoi(strings.TrimSpace(part)); err == nil && n >= 1 && n <= len(f.Options) {
			parts[i] = f.Options[n-1]
		}
	}
	return strings.Join(parts, ",")
}

// ask prompts until the answer passes check (which returns the value to
// keep, or a message), and is not empty when required.
func ask(ios *iostreams.IOStreams, label, def string, required bool, check func(string) (string, string)) (string, error) {
	for {
		answer, err := cmdutil.PromptLine(ios, "? "+output.Sanitize(label), output.Sanitize(def))
		if err != nil {
			return "", exitcode.Wrap(exitcode.Usage, err)
		}
		value, problem := check(answer)
		if problem == "" && required && value == "" {
			problem = "an answer is required"
		}
		if problem == "" {
			return value, nil
		}
		fmt.Fprintf(ios.ErrOut, "  ✗ %s\n", output.Sanitize(problem))
	}
}

func problemCheck(fn func(string) (string, *bisform.Problem)) func(string) (string, string) {
	return func(v string) (string, string) {
		out, p := fn(v)
		if p != nil {
			msg := p.Message
			if p.Hint != "" {
				msg += " (" + p.Hint + ")"
			}
			return "", msg
		}
		return out, ""
	}
}

func idCheck(param string) func(string) (string, string) {
	return problemCheck(func(v string) (string, *bisform.Problem) {
		if strings.TrimSpace(v) == "" {
			return "", nil
		}
		return bisform.CheckID(param, v)
	})
}
