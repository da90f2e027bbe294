package ruleform

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// The three text keys a translation may set.
const (
	KeyAddToCart = "comingSoonAddToCartText"
	KeyAbove     = "comingSoonAboveMessage"
	KeyBelow     = "comingSoonBellowMessage" // sic: the API spells it Bellow
)

// TextKeys are the text keys in the order the API documents them.
var TextKeys = []string{KeyAddToCart, KeyAbove, KeyBelow}

// keyAliases are the short names accepted for the text keys (lower case).
var keyAliases = map[string]string{
	"comingsoonaddtocarttext": KeyAddToCart, "addtocart": KeyAddToCart, "add_to_cart": KeyAddToCart, "button": KeyAddToCart,
	"comingsoonabovemessage": KeyAbove, "above": KeyAbove,
	"comingsoonbellowmessage": KeyBelow, "comingsoonbelowmessage": KeyBelow, "below": KeyBelow, "bellow": KeyBelow,
}

// TextKey resolves a text key or alias to the API's key.
func TextKey(s string) (string, bool) {
	k, ok := keyAliases[strings.ToLower(strings.TrimSpace(s))]
	return k, ok
}

var langPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(default|[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*)$`) })

// ParseTranslation reads a --translation value, LANG.KEY=TEXT, such as
// fr.above=Bientôt or default.comingSoonAddToCartText=Notify me. The
// language and key are checked by Build.
func ParseTranslation(s string) (Text, error) {
	spec, text, ok := strings.Cut(s, "=")
	lang, key, dotted := strings.Cut(spec, ".")
	if !ok || !dotted || strings.TrimSpace(lang) == "" || strings.TrimSpace(key) == "" {
		return Text{}, fmt.Errorf("--translation %q: want LANG.KEY=TEXT, such as fr.above=Bientôt or default.addToCart=Notify me", s)
	}
	return Text{Lang: strings.TrimSpace(lang), Key: strings.TrimSpace(key), Value: text}, nil
}

// translations checks languages and keys and builds the request's object.
func (c *checker) translations() map[string]map[string]string {
	if c.shape("translations") {
		return nil
	}
	var out map[string]map[string]string
	for _, t := range c.in.Translations {
		lang := strings.TrimSpace(t.Lang)
		if !langPattern().MatchString(lang) {
			c.add("translations", fmt.Sprintf("The translation language %q is not \"default\" or a locale code such as fr or pt-BR.", lang))
			continue
		}
		key, ok := TextKey(t.Key)
		if !ok {
			c.add("translations."+lang, fmt.Sprintf("The translation key %q is not one of %s (or addToCart, above, below).", t.Key, strings.Join(TextKeys, ", ")))
			continue
		}
		field := "translations." + lang + "." + key
		if out == nil {
			out = map[string]map[string]string{}
		}
		if out[lang] == nil {
			out[lang] = map[string]string{}
		}
		if _, dup := out[lang][key]; dup {
			c.add(field, fmt.Sprintf("The translation %s is given twice: keep one.", lang+"."+key))
			continue
		}
		out[lang][key] = t.Value
	}
	// Entries or texts of the wrong shape are not in Translations at all.
	var fields []string
	for field := range c.in.Invalid {
		if strings.HasPrefix(field, "translations.") {
			fields = append(fields, field)
		}
	}
	sort.Strings(fields)
	for _, field := range fields {
		c.add(field, c.in.Invalid[field])
	}
	return out
}
