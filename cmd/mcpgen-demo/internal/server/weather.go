package server

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/mcptool"
)

// Weather reads current conditions from an Open-Meteo-compatible API: its
// geocoding API finds the place, its forecast API the values.
type Weather struct {
	forecastURL  string // e.g. https://api.open-meteo.com
	geocodingURL string // e.g. https://geocoding-api.open-meteo.com
	client       *http.Client
}

// WeatherArgs are the arguments of get_weather. Bounds per call: two
// requests upstream, 30 s, 4 MiB read of each answer; at most four calls at
// once, two a second on average.
type WeatherArgs struct {
	_ struct{} `mcp:"title=Get Weather,readOnly,openWorld,rate=2/s,burst=10,timeout=30s,concurrency=4"`
	// City name or zip code, optionally followed by a comma and a country or region to pick among
	// places of the same name, e.g. "New York", "10115" or "Paris, France".
	Location string `json:"location" jsonschema:"example=New York" validate:"required,min=2,max=200"`
	// Units of the values: metric (°C, km/h, mm) or imperial (°F, mph, inch).
	Units string `json:"units,omitempty" jsonschema:"default=metric" validate:"omitempty,oneof=metric imperial"`
}

// Place is where the weather is for.
type Place struct {
	// The place's name, e.g. Berlin.
	Name string `json:"name"`
	// The state, province or similar, e.g. Land Berlin, when known.
	Region string `json:"region,omitempty"`
	// The country, e.g. Germany, when known.
	Country string `json:"country,omitempty"`
	// Latitude in degrees, north positive.
	Latitude float64 `json:"latitude"`
	// Longitude in degrees, east positive.
	Longitude float64 `json:"longitude"`
	// The place's IANA time zone, e.g. Europe/Berlin.
	Timezone string `json:"timezone,omitempty"`
}

// CurrentWeather is what get_weather reports.
type CurrentWeather struct {
	// The place found for the location asked for.
	Location Place `json:"location"`
	// The local time at the place that the values are for, ISO 8601, e.g. 2026-03-01T14:45.
	Time string `json:"time"`
	// The weather in words, from its WMO weather code, e.g. Partly cloudy.
	Conditions string `json:"conditions"`
	// The WMO weather interpretation code (0 clear sky ... 99 thunderstorm with heavy hail).
	WeatherCode int `json:"weatherCode"`
	// Air temperature 2 m above ground, in units.temperature.
	Temperature float64 `json:"temperature"`
	// Apparent (feels-like) temperature, in units.temperature.
	FeelsLike float64 `json:"feelsLike"`
	// Relative humidity 2 m above ground, in percent.
	Humidity float64 `json:"humidity"`
	// Rain, showers and snow of the preceding interval, in units.precipitation.
	Precipitation float64 `json:"precipitation"`
	// Wind speed 10 m above ground, in units.windSpeed.
	WindSpeed float64 `json:"windSpeed"`
	// Direction the wind comes from, in degrees (0 north, 90 east).
	WindDirection float64 `json:"windDirection"`
	// The units of the values.
	Units WeatherUnits `json:"units"`
	// Where the data comes from.
	Source string `json:"source"`
}

// WeatherUnits are the units of get_weather's values.
type WeatherUnits struct {
	// Unit of temperature and feelsLike, e.g. °C.
	Temperature string `json:"temperature"`
	// Unit of windSpeed, e.g. km/h.
	WindSpeed string `json:"windSpeed"`
	// Unit of precipitation, e.g. mm.
	Precipitation string `json:"precipitation"`
}

// Current reports the current weather for a place, from Open-Meteo:
// temperature, feels-like temperature, humidity, precipitation, wind and
// conditions, as measured or modelled now. Nothing is invented: when the
// service cannot be reached, or does not know the place, the call fails and
// says so.
//
// Example: {"location": "Berlin"} or {"location": "Paris, France", "units":
// "imperial"} returns the place found (name, country, coordinates) and the
// current values with their units.
func (w *Weather) Current(ctx context.Context, in WeatherArgs) (CurrentWeather, error) {
	place, err := w.geocode(ctx, in.Location)
	if err != nil {
		return CurrentWeather{}, err
	}
	q := url.Values{
		"latitude":  {strconv.FormatFloat(place.Latitude, 'f', -1, 64)},
		"longitude": {strconv.FormatFloat(place.Longitude, 'f', -1, 64)},
		"current":   {"temperature_2m,relative_humidity_2m,apparent_temperature,precipitation,weather_code,wind_speed_10m,wind_direction_10m"},
		"timezone":  {"auto"},
	}
	if in.Units == "imperial" {
		q.Set("temperature_unit", "fahrenheit")
		q.Set("wind_speed_unit", "mph")
		q.Set("precipitation_unit", "inch")
	}
	u, err := endpoint(w.forecastURL, q, "v1", "forecast")
	if err != nil {
		return CurrentWeather{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return CurrentWeather{}, err
	}
	var got struct {
		Timezone string `json:"timezone"`
		Units    struct {
			Temperature   string `json:"temperature_2m"`
			WindSpeed     string `json:"wind_speed_10m"`
			Precipitation string `json:"precipitation"`
		} `json:"current_units"`
		Current *struct {
			Time          string   `json:"time"`
			Temperature   *float64 `json:"temperature_2m"`
			Humidity      *float64 `json:"relative_humidity_2m"`
			FeelsLike     *float64 `json:"apparent_temperature"`
			Precipitation *float64 `json:"precipitation"`
			Code          *int     `json:"weather_code"`
			WindSpeed     *float64 `json:"wind_speed_10m"`
			WindDirection *float64 `json:"wind_direction_10m"`
		} `json:"current"`
	}
	if err := fetchJSON(w.client, req, "the weather service", &got); err != nil {
		return CurrentWeather{}, err
	}
	c := got.Current
	if c == nil || c.Temperature == nil || c.Humidity == nil || c.FeelsLike == nil || c.Precipitation == nil ||
		c.Code == nil || c.WindSpeed == nil || c.WindDirection == nil || got.Units.Temperature == "" {
		return CurrentWeather{}, mcptool.Errorf("the weather service answered without current values for %s; no weather is reported rather than a guess", place.Name)
	}
	if place.Timezone == "" {
		place.Timezone = got.Timezone
	}
	return CurrentWeather{
		Location:      place,
		Time:          c.Time,
		Conditions:    wmoText(*c.Code),
		WeatherCode:   *c.Code,
		Temperature:   *c.Temperature,
		FeelsLike:     *c.FeelsLike,
		Humidity:      *c.Humidity,
		Precipitation: *c.Precipitation,
		WindSpeed:     *c.WindSpeed,
		WindDirection: *c.WindDirection,
		Units:         WeatherUnits{Temperature: got.Units.Temperature, WindSpeed: got.Units.WindSpeed, Precipitation: got.Units.Precipitation},
		Source:        "Open-Meteo (open-meteo.com), CC BY 4.0",
	}, nil
}

// geocode finds the place a location names: the best match of the geocoding
// API, or with "name, qualifier" the best whose country, country code or
// region matches the qualifier.
func (w *Weather) geocode(ctx context.Context, location string) (Place, error) {
	name, qualifier, _ := strings.Cut(location, ",")
	name, qualifier = strings.TrimSpace(name), strings.TrimSpace(qualifier)
	if len(name) < 2 {
		return Place{}, mcptool.Errorf("location %q: give a place name or postal code of at least 2 characters before any comma", location)
	}
	count := "1"
	if qualifier != "" {
		count = "20"
	}
	u, err := endpoint(w.geocodingURL, url.Values{"name": {name}, "count": {count}, "language": {"en"}, "format": {"json"}}, "v1", "search")
	if err != nil {
		return Place{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return Place{}, err
	}
	var got struct {
		Results []struct {
			Name        string   `json:"name"`
			Latitude    *float64 `json:"latitude"`
			Longitude   *float64 `json:"longitude"`
			Country     string   `json:"country"`
			CountryCode string   `json:"country_code"`
			Admin1      string   `json:"admin1"`
			Timezone    string   `json:"timezone"`
		} `json:"results"`
	}
	if err := fetchJSON(w.client, req, "the geocoding service", &got); err != nil {
		return Place{}, err
	}
	for _, r := range got.Results {
		if r.Latitude == nil || r.Longitude == nil {
			continue
		}
		if qualifier != "" && !strings.EqualFold(r.Country, qualifier) && !strings.EqualFold(r.CountryCode, qualifier) && !strings.EqualFold(r.Admin1, qualifier) {
			continue
		}
		return Place{Name: r.Name, Region: r.Admin1, Country: r.Country, Latitude: *r.Latitude, Longitude: *r.Longitude, Timezone: r.Timezone}, nil
	}
	if qualifier != "" {
		return Place{}, mcptool.Errorf("no place named %q in %q found; check the spelling, or give the country's English name or ISO code", name, qualifier)
	}
	return Place{}, mcptool.Errorf("no place named %q found; check the spelling, or try a nearby city or a postal code", name)
}

// wmoText describes a WMO weather interpretation code.
func wmoText(code int) string {
	if s, ok := wmoCodes[code]; ok {
		return s
	}
	return fmt.Sprintf("unknown (WMO code %d)", code)
}

var wmoCodes = map[int]string{
	0: "Clear sky", 1: "Mainly clear", 2: "Partly cloudy", 3: "Overcast",
	45: "Fog", 48: "Depositing rime fog",
	51: "Light drizzle", 53: "Moderate drizzle", 55: "Dense drizzle",
	56: "Light freezing drizzle", 57: "Dense freezing drizzle",
	61: "Slight rain", 63: "Moderate rain", 65: "Heavy rain",
	66: "Light freezing rain", 67: "Heavy freezing rain",
	71: "Slight snowfall", 73: "Moderate snowfall", 75: "Heavy snowfall", 77: "Snow grains",
	80: "Slight rain showers", 81: "Moderate rain showers", 82: "Violent rain showers",
	85: "Slight snow showers", 86: "Heavy snow showers",
	95: "Thunderstorm", 96: "Thunderstorm with slight hail", 99: "Thunderstorm with heavy hail",
}
