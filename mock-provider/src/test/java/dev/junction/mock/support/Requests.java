package dev.junction.mock.support;

/** Request bodies used across the tests. */
public final class Requests {

	/** An OpenAI tool with a required string and integer argument and an optional one. */
	public static final String OPENAI_WEATHER_TOOL = """
			{"type":"function","function":{"name":"get_weather","description":"Weather of a city",
			 "parameters":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"},
			 "unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city","days"]}}}""";

	/** The same tool for Anthropic. */
	public static final String ANTHROPIC_WEATHER_TOOL = """
			{"name":"get_weather","description":"Weather of a city",
			 "input_schema":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"},
			 "unit":{"type":"string","enum":["celsius","fahrenheit"]}},"required":["city","days"]}}""";

	private Requests() {
	}

	/**
	 * An OpenAI chat request with one user message and optional extra fields (without
	 * braces).
	 */
	public static String openAi(String prompt, String extra) {
		return "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]"
				+ (extra.isEmpty() ? "" : "," + extra) + "}";
	}

	/**
	 * An Anthropic messages request with one user message and optional extra fields
	 * (without braces).
	 */
	public static String anthropic(String prompt, String extra) {
		return "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":1024,\"messages\":[{\"role\":\"user\",\"content\":\""
				+ prompt + "\"}]" + (extra.isEmpty() ? "" : "," + extra) + "}";
	}

}
