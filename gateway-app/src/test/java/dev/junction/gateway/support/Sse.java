package dev.junction.gateway.support;

import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** The text of a server-sent event stream, read line by line for assertions. */
public final class Sse {

	private static final String DATA = "data: ";

	private static final String EVENT = "event: ";

	private Sse() {
	}

	/** What the {@code data:} lines of {@code body} carry, in order. */
	public static List<String> data(String body) {
		return fields(body, DATA);
	}

	/** The names on the {@code event:} lines of {@code body}, in order. */
	public static List<String> events(String body) {
		return fields(body, EVENT);
	}

	/**
	 * The data of the last event of {@code body}, which must be an {@code error} event.
	 */
	public static JsonNode lastErrorEvent(String body) {
		String last = body.substring(body.lastIndexOf(EVENT)).strip();
		assertThat(last).startsWith("event: error\ndata: ");
		return Json.parse(last.substring(last.indexOf(DATA) + 6));
	}

	/**
	 * Asserts that the events of {@code body} carry the {@code sequence_number}s 0, 1, 2
	 * and on, in order, and answers how many there are.
	 */
	public static int assertNumberedFromZero(String body) {
		int expected = 0;
		for (String line : body.split("\n")) {
			if (line.startsWith(DATA)) {
				assertThat(Json.parse(line.substring(6)).path("sequence_number").asInt(-1)).isEqualTo(expected++);
			}
		}
		return expected;
	}

	private static List<String> fields(String body, String prefix) {
		List<String> values = new ArrayList<>();
		for (String line : body.split("\n")) {
			if (line.startsWith(prefix)) {
				values.add(line.substring(prefix.length()));
			}
		}
		return values;
	}

}
