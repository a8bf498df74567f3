package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeOpenMeteo serves Open-Meteo's geocoding (/v1/search) and forecast
// (/v1/forecast) APIs for a few places, and records the forecast queries.
type fakeOpenMeteo struct {
	*httptest.Server
	mu      sync.Mutex
	queries []url.Values
}

var fakePlaces = []map[string]any{
	{"name": "Paris", "latitude": 33.66094, "longitude": -95.55551, "country": "United States", "country_code": "US", "admin1": "Texas", "timezone": "America/Chicago"},
	{"name": "Paris", "latitude": 48.85341, "longitude": 2.3488, "country": "France", "country_code": "FR", "admin1": "Île-de-France", "timezone": "Europe/Paris"},
	{"name": "Berlin", "latitude": 52.52437, "longitude": 13.41053, "country": "Germany", "country_code": "DE", "admin1": "Land Berlin", "timezone": "Europe/Berlin"},
	{"name": "Nowhere Station", "latitude": 0.0, "longitude": 0.0, "country": "", "timezone": "GMT"}, // the forecast has no current values there
}

func newFakeOpenMeteo(t *testing.T) *fakeOpenMeteo {
	f := &fakeOpenMeteo{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/search", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		assert.Equal(t, "json", q.Get("format"))
		var results []map[string]any
		for _, p := range fakePlaces {
			if strings.EqualFold(p["name"].(string), q.Get("name")) {
				results = append(results, p)
			}
		}
		if q.Get("count") == "1" && len(results) > 1 {
			results = results[:1]
		}
		if q.Get("name") == "Teapot" {
			w.WriteHeader(http.StatusTeapot)
			_, _ = w.Write([]byte(`{"error": true, "reason": "Cannot brew coffee"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		out := map[string]any{"generationtime_ms": 0.3}
		if results != nil {
			out["results"] = results // Open-Meteo leaves results out when nothing matches
		}
		_ = json.NewEncoder(w).Encode(out)
	})
	mux.HandleFunc("GET /v1/forecast", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		f.mu.Lock()
		f.queries = append(f.queries, q)
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if q.Get("latitude") == "0" {
			_, _ = w.Write([]byte(`{"latitude": 0, "longitude": 0, "timezone": "GMT"}`))
			return
		}
		tu, wu, pu := "°C", "km/h", "mm"
		if q.Get("temperature_unit") == "fahrenheit" {
			tu, wu, pu = "°F", "mp/h", "inch"
		}
		_ = json.NewEncoder(w).Encode(map[string]any{
			"latitude": 52.52, "longitude": 13.419998, "timezone": "Europe/Berlin",
			"current_units": map[string]any{"time": "iso8601", "interval": "seconds", "temperature_2m": tu, "relative_humidity_2m": "%",
				"apparent_temperature": tu, "precipitation": pu, "weather_code": "wmo code", "wind_speed_10m": wu, "wind_direction_10m": "°"},
			"current": map[string]any{"time": "2026-03-01T14:45", "interval": 900, "temperature_2m": 7.5, "relative_humidity_2m": 81,
				"apparent_temperature": 4.9, "precipitation": 0.2, "weather_code": 61, "wind_speed_10m": 14.8, "wind_direction_10m": 245},
		})
	})
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

func TestGetWeather(t *testing.T) {
	om := newFakeOpenMeteo(t)
	cs, _ := demoClient(t, func(c *config) { c.weatherURL = om.URL; c.geocodingURL = om.URL })

	got := okResult(t, cs.Call("get_weather", map[string]any{"location": "Berlin"}))
	assert.Equal(t, map[string]any{
		"location": map[string]any{"name": "Berlin", "region": "Land Berlin", "country": "Germany", "latitude": 52.52437, "longitude": 13.41053, "timezone": "Europe/Berlin"},
		"time":     "2026-03-01T14:45", "conditions": "Slight rain", "weatherCode": 61.0,
		"temperature": 7.5, "feelsLike": 4.9, "humidity": 81.0, "precipitation": 0.2, "windSpeed": 14.8, "windDirection": 245.0,
		"units":  map[string]any{"temperature": "°C", "windSpeed": "km/h", "precipitation": "mm"},
		"source": "Open-Meteo (open-meteo.com), CC BY 4.0",
	}, got)
	require.Len(t, om.queries, 1)
	assert.Equal(t, "52.52437", om.queries[0].Get("latitude"))
	assert.Equal(t, "13.41053", om.queries[0].Get("longitude"))
	assert.Contains(t, om.queries[0].Get("current"), "temperature_2m")
	assert.Empty(t, om.queries[0].Get("temperature_unit"))

	// "Paris, France" picks the French one; imperial units are asked for.
	got = okResult(t, cs.Call("get_weather", map[string]any{"location": "Paris, france", "units": "imperial"}))
	assert.Equal(t, "France", got["location"].(map[string]any)["country"])
	assert.Equal(t, "°F", got["units"].(map[string]any)["temperature"])
	assert.Equal(t, "fahrenheit", om.queries[1].Get("temperature_unit"))
	assert.Equal(t, "mph", om.queries[1].Get("wind_speed_unit"))
	got = okResult(t, cs.Call("get_weather", map[string]any{"location": "Paris, US"}))
	assert.Equal(t, "United States", got["location"].(map[string]any)["country"], "by country code")
	got = okResult(t, cs.Call("get_weather", map[string]any{"location": "paris,texas"}))
	assert.Equal(t, "Texas", got["location"].(map[string]any)["region"], "by region")
}

// TestGetWeatherNoData checks that get_weather reports failures instead of
// weather: unknown places, a forecast without values, an upstream error, no
// network.
func TestGetWeatherNoData(t *testing.T) {
	om := newFakeOpenMeteo(t)
	cs, _ := demoClient(t, func(c *config) { c.weatherURL = om.URL; c.geocodingURL = om.URL })
	for loc, want := range map[string]string{
		"Atlantis":        `no place named "Atlantis" found`,
		"Paris, Narnia":   `no place named "Paris" in "Narnia" found`,
		"Nowhere Station": "the weather service answered without current values for Nowhere Station; no weather is reported rather than a guess",
		"Teapot":          "the geocoding service answered 418 I'm a teapot: Cannot brew coffee",
		", France":        "give a place name or postal code of at least 2 characters",
		"x":               "location: must be at least 2 characters long",
	} {
		assert.Contains(t, errResult(t, cs.Call("get_weather", map[string]any{"location": loc})), want, loc)
	}
	assert.Contains(t, errResult(t, cs.Call("get_weather", map[string]any{"location": "Berlin", "units": "kelvin"})), `units: must be one of "metric", "imperial"`)

	dead := deadURL(t)
	cs, _ = demoClient(t, func(c *config) { c.weatherURL = dead; c.geocodingURL = dead })
	assert.Contains(t, errResult(t, cs.Call("get_weather", map[string]any{"location": "Berlin"})),
		"cannot reach the geocoding service at 127.0.0.1:")
	// Geocoding works, the forecast API is down.
	cs, _ = demoClient(t, func(c *config) { c.weatherURL = dead; c.geocodingURL = om.URL })
	assert.Contains(t, errResult(t, cs.Call("get_weather", map[string]any{"location": "Berlin"})),
		"cannot reach the weather service at 127.0.0.1:")
}
