package catalog

// storeSettings is the store's filter & search app configuration. The spec
// shows neither the parameters nor the response of GET /settings; the shape
// served here is the sandbox's own design (see docs/sandbox-catalog.md).
type storeSettings struct {
	ShopName          string
	Domain            string
	Currency          string
	MoneyFormat       string
	MoneyWithCurrency string
	Locales           []string
	ProductsPerPage   int
	// InstantSearchLimit is the store's instant-search product limit; the
	// search endpoint caps it at 48 when it is used as the default.
	InstantSearchLimit int
	SuggestionsLimit   int
	CollectionsLimit   int
	ShowSuggestions    bool
	ShowCollections    bool
	PopularKeywords    []string
	// ZeroTermProducts is how many best sellers the empty-term search shows.
	ZeroTermProducts int
}

func demoSettings() storeSettings {
	return storeSettings{
		ShopName:           "Sandbox Outfitters",
		Domain:             "sandbox-outfitters.example.com",
		Currency:           "USD",
		MoneyFormat:        "${{amount}}",
		MoneyWithCurrency:  "${{amount}} USD",
		Locales:            []string{"en"},
		ProductsPerPage:    24,
		InstantSearchLimit: 48,
		SuggestionsLimit:   5,
		CollectionsLimit:   3,
		ShowSuggestions:    true,
		ShowCollections:    true,
		PopularKeywords:    []string{"rain jacket", "merino", "boots", "backpack", "beanie", "sale"},
		ZeroTermProducts:   8,
	}
}

type settingsBody struct {
	Success bool         `json:"success"`
	Data    settingsData `json:"data"`
}

type settingsData struct {
	Shop            settingsShop     `json:"shop"`
	Currency        string           `json:"currency"`
	MoneyFormat     string           `json:"money_format"`
	MoneyWithCurr   string           `json:"money_with_currency_format"`
	MultiCurrency   bool             `json:"multi_currency"`
	Locales         []string         `json:"locales"`
	PrimaryLocale   string           `json:"primary_locale"`
	ProductsPerPage int              `json:"products_per_page"`
	DefaultSort     string           `json:"default_sort"`
	InstantSearch   settingsInstant  `json:"instant_search"`
	Search          settingsSearch   `json:"search"`
	Filters         []settingsTree   `json:"filters"`
	SortOptions     []settingsSortBy `json:"sort_options"`
}

type settingsShop struct {
	Name   string `json:"name"`
	Domain string `json:"domain"`
}

type settingsInstant struct {
	Enabled          bool     `json:"enabled"`
	Limit            int      `json:"limit"`
	ShowSuggestions  bool     `json:"show_suggestions"`
	SuggestionsLimit int      `json:"suggestions_limit"`
	ShowCollections  bool     `json:"show_collections"`
	CollectionsLimit int      `json:"collections_limit"`
	PopularKeywords  []string `json:"popular_keywords"`
}

type settingsSearch struct {
	DefaultSort   string   `json:"default_sort"`
	Fields        []string `json:"fields"`
	TermMaxLength int      `json:"term_max_length"`
	MaxLimit      int      `json:"max_limit"`
}

type settingsTree struct {
	ID           int64            `json:"id"`
	Title        string           `json:"title"`
	PageType     string           `json:"page_type"`
	CollectionID *int64           `json:"collection_id"`
	Options      []settingsOption `json:"options"`
}

type settingsOption struct {
	ID        int64  `json:"id"`
	Handle    string `json:"handle"`
	Label     string `json:"label"`
	Attribute string `json:"attribute"`
	Display   string `json:"display"`
}

type settingsSortBy struct {
	Value string `json:"value"`
	Label string `json:"label"`
}

// Settings serves GET /sfs/v1/settings.
func (c *Catalog) Settings() (int, []byte) {
	s := c.settings
	data := settingsData{
		Shop:            settingsShop{Name: s.ShopName, Domain: s.Domain},
		Currency:        s.Currency,
		MoneyFormat:     s.MoneyFormat,
		MoneyWithCurr:   s.MoneyWithCurrency,
		MultiCurrency:   false,
		Locales:         s.Locales,
		PrimaryLocale:   s.Locales[0],
		ProductsPerPage: s.ProductsPerPage,
		DefaultSort:     sortCreatedDesc,
		InstantSearch: settingsInstant{
			Enabled:          true,
			Limit:            min(s.InstantSearchLimit, maxInstantLimit),
			ShowSuggestions:  s.ShowSuggestions,
			SuggestionsLimit: s.SuggestionsLimit,
			ShowCollections:  s.ShowCollections,
			CollectionsLimit: s.CollectionsLimit,
			PopularKeywords:  s.PopularKeywords,
		},
		Search: settingsSearch{
			DefaultSort:   sortRelevance,
			Fields:        []string{"title", "vendor", "product_type", "tags", "sku"},
			TermMaxLength: maxTermRunes,
			MaxLimit:      maxLimit,
		},
		Filters:     []settingsTree{},
		SortOptions: []settingsSortBy{},
	}
	for _, t := range c.trees {
		st := settingsTree{ID: t.id, Title: t.title, PageType: t.pageType, Options: []settingsOption{}}
		if t.pageType == pageCollection {
			id := t.collectionID
			st.CollectionID = &id
		}
		for _, o := range t.options {
			st.Options = append(st.Options, settingsOption{ID: o.id, Handle: o.handle, Label: o.label, Attribute: o.attribute, Display: o.display})
		}
		data.Filters = append(data.Filters, st)
	}
	for _, so := range sortOptions {
		data.SortOptions = append(data.SortOptions, settingsSortBy{Value: so.value, Label: so.label})
	}
	return jsonBody(200, settingsBody{Success: true, Data: data})
}
