package catalog

// The demo store's vocabulary: the kinds of products it sells and the words
// their titles, SKUs and metafields are built from.

type productKind struct {
	productType string
	code        string // SKU segment
	nouns       []string
	descriptors []string
	// options names the product's options in order; "Title" alone marks a
	// single-variant product ("Default Title").
	options   []string
	sizes     []string // values of the Size or Capacity option
	priceMin  int      // whole dollars
	priceMax  int
	materials []string
	gramsMin  int
	gramsMax  int
	weight    int // relative share of the catalog
}

var demoKinds = []productKind{
	{productType: "Jacket", code: "JKT", nouns: []string{"Jacket", "Parka", "Shell"},
		descriptors: []string{"Insulated", "Rain", "Down", "Softshell", "Windbreaker", "Storm"},
		options:     []string{"Color", "Size"}, sizes: apparelSizes, priceMin: 89, priceMax: 349,
		materials: []string{"Recycled nylon", "Gore-Tex", "Polyester ripstop", "Waxed cotton"},
		gramsMin:  350, gramsMax: 1200, weight: 14},
	{productType: "T-Shirt", code: "TEE", nouns: []string{"Tee", "T-Shirt", "Crew"},
		descriptors: []string{"Merino", "Organic", "Trail", "Graphic", "Pocket", "Essential"},
		options:     []string{"Color", "Size"}, sizes: apparelSizes, priceMin: 24, priceMax: 69,
		materials: []string{"Organic cotton", "Merino wool", "Cotton blend", "Recycled polyester"},
		gramsMin:  120, gramsMax: 220, weight: 14},
	{productType: "Hoodie", code: "HOD", nouns: []string{"Hoodie", "Pullover", "Zip Hoodie"},
		descriptors: []string{"Fleece", "Heavyweight", "Waffle", "Campfire", "Brushed", "Everyday"},
		options:     []string{"Color", "Size"}, sizes: apparelSizes, priceMin: 49, priceMax: 119,
		materials: []string{"Cotton fleece", "Recycled polyester", "Merino wool"},
		gramsMin:  400, gramsMax: 800, weight: 11},
	{productType: "Pants", code: "PNT", nouns: []string{"Pants", "Chinos", "Joggers"},
		descriptors: []string{"Hiking", "Convertible", "Stretch", "Climbing", "Canvas", "Travel"},
		options:     []string{"Color", "Size"}, sizes: apparelSizes, priceMin: 59, priceMax: 139,
		materials: []string{"Nylon stretch", "Organic cotton canvas", "Hemp blend"},
		gramsMin:  300, gramsMax: 650, weight: 10},
	{productType: "Shorts", code: "SHT", nouns: []string{"Shorts", "Trunks"},
		descriptors: []string{"Trail", "Board", "Running", "Cargo", "Lightweight", "Swim"},
		options:     []string{"Color", "Size"}, sizes: apparelSizes, priceMin: 34, priceMax: 79,
		materials: []string{"Recycled polyester", "Nylon", "Cotton twill"},
		gramsMin:  120, gramsMax: 300, weight: 9},
	{productType: "Boots", code: "BOT", nouns: []string{"Boots", "Hikers"},
		descriptors: []string{"Waterproof", "Mid", "Winter", "Leather", "Approach", "Backpacking"},
		options:     []string{"Color", "Size"}, sizes: shoeSizes, priceMin: 129, priceMax: 259,
		materials: []string{"Full-grain leather", "Suede and mesh", "Synthetic"},
		gramsMin:  800, gramsMax: 1500, weight: 9},
	{productType: "Sneakers", code: "SNK", nouns: []string{"Sneakers", "Runners", "Trainers"},
		descriptors: []string{"Trail", "Road", "Knit", "Canvas", "Court", "Recovery"},
		options:     []string{"Color", "Size"}, sizes: shoeSizes, priceMin: 79, priceMax: 169,
		materials: []string{"Engineered knit", "Canvas", "Recycled mesh"},
		gramsMin:  500, gramsMax: 900, weight: 9},
	{productType: "Backpack", code: "BAG", nouns: []string{"Backpack", "Daypack", "Pack"},
		descriptors: []string{"Rolltop", "Commuter", "Summit", "Hydration", "Travel", "Ultralight"},
		options:     []string{"Color", "Capacity"}, sizes: []string{"18L", "24L", "32L", "45L"},
		priceMin: 59, priceMax: 229,
		materials: []string{"Recycled nylon", "Waxed canvas", "Dyneema"},
		gramsMin:  400, gramsMax: 1600, weight: 9},
	{productType: "Beanie", code: "HAT", nouns: []string{"Beanie", "Toque"},
		descriptors: []string{"Ribbed", "Cuffed", "Merino", "Fisherman", "Pom", "Slouch"},
		options:     []string{"Color"}, priceMin: 19, priceMax: 45,
		materials: []string{"Merino wool", "Acrylic", "Recycled wool"},
		gramsMin:  60, gramsMax: 120, weight: 8},
	{productType: "Accessory", code: "ACC", nouns: []string{"Water Bottle", "Headlamp", "Camp Mug", "Trekking Poles", "Dry Bag"},
		descriptors: []string{"Insulated", "Rechargeable", "Enamel", "Carbon", "Roll-Top", "Collapsible"},
		options:     []string{"Title"}, priceMin: 14, priceMax: 129,
		materials: []string{"Stainless steel", "Aluminium", "Carbon fibre", "TPU-coated nylon"},
		gramsMin:  80, gramsMax: 600, weight: 7},
}

var (
	apparelSizes = []string{"XS", "S", "M", "L", "XL", "XXL"}
	shoeSizes    = []string{"7", "8", "9", "10", "11", "12"}
)

type demoColor struct{ name, code string }

var demoColors = []demoColor{
	{"Black", "BLK"}, {"Navy", "NVY"}, {"Olive", "OLV"}, {"Sand", "SND"},
	{"Rust", "RST"}, {"Forest Green", "FGR"}, {"Slate", "SLT"}, {"Charcoal", "CHR"},
	{"Red", "RED"}, {"White", "WHT"}, {"Sky Blue", "SKY"}, {"Mustard", "MST"},
}

type demoVendor struct{ name, code string }

var demoVendors = []demoVendor{
	{"Northwind Outfitters", "NWO"}, {"Alpine Crest", "ALC"}, {"Cedar & Pine", "CDP"},
	{"Harbor Supply Co.", "HSC"}, {"Summit Ridge", "SMR"}, {"Wildtrail", "WLD"},
	{"Blue Fjord", "BLF"}, {"Ember Goods", "EMB"},
}

var demoModels = []string{
	"Ridgeline", "Summit", "Trailhead", "Basecamp", "Coastal", "Alpine", "Timberline",
	"Canyon", "Glacier", "Meadow", "Harbor", "Switchback", "Tundra", "Boulder", "Cascade",
	"Redwood", "Driftwood", "Aspen", "Juniper", "Sierra", "Fjord", "Highland", "Prairie",
	"Granite", "Northstar", "Sequoia", "Willow", "Ember", "Cobalt", "Horizon",
}

var demoSeasons = []string{"Spring/Summer", "Fall/Winter", "All Season"}

var demoFeatureTags = []string{"waterproof", "recycled", "organic-cotton", "merino", "vegan", "packable", "limited-edition"}

var demoGenderTags = []string{"men", "women", "unisex", "kids"}
