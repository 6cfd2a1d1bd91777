package dev.junction.gateway.warmup;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;

import dev.junction.gateway.warmup.WarmUpRequests.Request;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class WarmUpRequestsTests {

	private final ObjectMapper mapper = JsonMapper.builder().build();

	private final List<Request> requests = IntStream.range(0, 256)
		.mapToObj(new WarmUpRequests("emu/gpt-4o-mini", this.mapper)::get)
		.toList();

	@Test
	void everyBodyIsAChatCompletionForTheModelThatAsksForAStreamExactlyWhenStreamed() {
		for (Request request : this.requests) {
			JsonNode body = this.mapper.readTree(request.body());
			assertThat(body.path("model").asString()).isEqualTo("emu/gpt-4o-mini");
			assertThat(body.path("messages").isArray()).isTrue();
			assertThat(body.path("messages").get(body.path("messages").size() - 1).path("role").asString())
				.isEqualTo("user");
			assertThat(body.path("stream").asBoolean(false)).isEqualTo(request.stream());
		}
	}

	@Test
	void streamsEveryFourthHalfOfThemAskingForUsage() {
		List<Request> streams = this.requests.stream().filter(Request::stream).toList();
		assertThat(streams).hasSize(64);
		assertThat(streams.stream()
			.filter((request) -> this.mapper.readTree(request.body())
				.path("stream_options")
				.path("include_usage")
				.asBoolean(false)))
			.hasSize(32);
	}

	@Test
	void sendsMostBodiesWithTheirLengthAndSomeInChunksStreamedOrNot() {
		List<Request> chunked = this.requests.stream().filter(Request::chunked).toList();
		assertThat(chunked).hasSize(32);
		assertThat(chunked).anyMatch(Request::stream).anyMatch((request) -> !request.stream());
	}

	@Test
	void writesJsonCompactAndWithSpacesAfterSeparatorsOutsideStrings() {
		List<String> bodies = this.requests.stream()
			.map((request) -> new String(request.body(), StandardCharsets.UTF_8))
			.toList();
		assertThat(bodies).anyMatch((body) -> body.startsWith("{\"model\":\"emu/gpt-4o-mini\",\"messages\":[{"))
			.anyMatch((body) -> body.startsWith("{\"model\": \"emu/gpt-4o-mini\", \"messages\": [{"));
		assertThat(bodies).allMatch((body) -> body.contains("\"Say hi.\"") || body.contains("\"Answer in one word.\""));
		assertThat(bodies).anyMatch((body) -> body.endsWith("}\n")).anyMatch((body) -> body.endsWith("}"));
		assertThat(bodies).anyMatch((body) -> body.contains("\"temperature\": 0.7"))
			.anyMatch((body) -> body.contains("\"role\":\"system\""));
	}

	@Test
	void variesItsHeadersAndNowAndThenClosesItsConnection() {
		assertThat(this.requests.stream().map(Request::headers).distinct()).hasSizeGreaterThanOrEqualTo(3);
		assertThat(this.requests.stream().filter(Request::close)).hasSize(4);
	}

	@Test
	void goesAtFourTimesTheConcurrencyInEveryEighthRun() {
		assertThat(WarmUpRequests.concurrency(0, 8)).isEqualTo(8);
		assertThat(WarmUpRequests.concurrency(6 * WarmUpRequests.RUN, 8)).isEqualTo(8);
		assertThat(WarmUpRequests.concurrency(7 * WarmUpRequests.RUN, 8)).isEqualTo(32);
		assertThat(WarmUpRequests.concurrency(8 * WarmUpRequests.RUN, 8)).isEqualTo(8);
		assertThat(WarmUpRequests.concurrency(15 * WarmUpRequests.RUN, 8)).isEqualTo(32);
	}

}
