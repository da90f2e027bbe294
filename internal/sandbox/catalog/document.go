package catalog

import "time"

// productDoc is the product document of filter and search responses, in the
// platform's snake_case names. Prices are converted by the request's rate and
// adjustment; compare_at_price and absent option values are null.
type productDoc struct {
	ID          int64          `json:"id"`
	Title       string         `json:"title"`
	Handle      string         `json:"handle"`
	Vendor      string         `json:"vendor"`
	ProductType string         `json:"product_type"`
	Tags        []string       `json:"tags"`
	Options     []optionDoc    `json:"options"`
	Variants    []variantDoc   `json:"variants"`
	Images      []imageDoc     `json:"images"`
	Metafields  []metafieldDoc `json:"metafields"`
	Collections []int64        `json:"collections"`
	PriceMin    string         `json:"price_min"`
	PriceMax    string         `json:"price_max"`
	Available   bool           `json:"available"`
	CreatedAt   string         `json:"created_at"`
	PublishedAt string         `json:"published_at"`
	UpdatedAt   string         `json:"updated_at"`
}

type optionDoc struct {
	Name     string   `json:"name"`
	Position int      `json:"position"`
	Values   []string `json:"values"`
}

type variantDoc struct {
	ID                int64   `json:"id"`
	Title             string  `json:"title"`
	SKU               string  `json:"sku"`
	Price             string  `json:"price"`
	CompareAtPrice    *string `json:"compare_at_price"`
	Available         bool    `json:"available"`
	InventoryQuantity int     `json:"inventory_quantity"`
	Option1           *string `json:"option1"`
	Option2           *string `json:"option2"`
	Option3           *string `json:"option3"`
}

type imageDoc struct {
	Src      string `json:"src"`
	Alt      string `json:"alt"`
	Position int    `json:"position"`
}

type metafieldDoc struct {
	Namespace string `json:"namespace"`
	Key       string `json:"key"`
	Value     string `json:"value"`
	Type      string `json:"type"`
}

func productDocs(ps []*Product, pr pricing) []productDoc {
	docs := make([]productDoc, 0, len(ps))
	for _, p := range ps {
		docs = append(docs, productDocument(p, pr))
	}
	return docs
}

func productDocument(p *Product, pr pricing) productDoc {
	d := productDoc{
		ID:          p.ID,
		Title:       p.Title,
		Handle:      p.Handle,
		Vendor:      p.Vendor,
		ProductType: p.ProductType,
		Tags:        append([]string{}, p.Tags...),
		Options:     []optionDoc{},
		Variants:    []variantDoc{},
		Images:      []imageDoc{},
		Metafields:  []metafieldDoc{},
		Collections: append([]int64{}, p.CollectionIDs...),
		PriceMin:    formatCents(pr.convert(minPrice(p))),
		PriceMax:    formatCents(pr.convert(maxPrice(p))),
		Available:   available(p),
		CreatedAt:   docTime(p.CreatedAt),
		PublishedAt: docTime(p.PublishedAt),
		UpdatedAt:   docTime(p.UpdatedAt),
	}
	for _, o := range p.Options {
		d.Options = append(d.Options, optionDoc{Name: o.Name, Position: o.Position, Values: append([]string{}, o.Values...)})
	}
	for _, v := range p.Variants {
		d.Variants = append(d.Variants, variantDoc{
			ID:                v.ID,
			Title:             v.Title,
			SKU:               v.SKU,
			Price:             pr.convertString(v.Price),
			CompareAtPrice:    nullable(pr.convertString(v.CompareAtPrice)),
			Available:         v.Available,
			InventoryQuantity: v.InventoryQuantity,
			Option1:           nullable(v.Option1),
			Option2:           nullable(v.Option2),
			Option3:           nullable(v.Option3),
		})
	}
	for _, im := range p.Images {
		d.Images = append(d.Images, imageDoc(im))
	}
	for _, m := range p.Metafields {
		d.Metafields = append(d.Metafields, metafieldDoc(m))
	}
	return d
}

// docTime is ISO 8601 in UTC with a Z and whole seconds.
func docTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
