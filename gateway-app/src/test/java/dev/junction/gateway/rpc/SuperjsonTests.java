package dev.junction.gateway.rpc;

import java.util.List;

import dev.junction.gateway.support.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SuperjsonTests {

	private final Superjson superjson = new Superjson();

	@Test
	void parsesEscapedAndLegacyPaths() {
		assertThat(Superjson.parsePath("a.b\\.c.0", false)).isEqualTo(List.of("a", "b.c", "0"));
		assertThat(Superjson.parsePath("a\\\\.b", false)).isEqualTo(List.of("a\\", "b"));
		assertThat(Superjson.parsePath("a\\.b", true)).isEqualTo(List.of("a.b"));
	}

	@Test
	void decodesNestedAnnotations() {
		JsonNode input = this.superjson.input(Json
			.parse("""
					{"json":{"list":[null,"12345678901234567890"],"when":"2026-01-02T03:04:05.000Z","dotted.key":null,"keep":1},
					 "meta":{"values":{"list.0":["undefined"],"list.1":["bigint"],"when":["Date"],"dotted\\\\.key":["undefined"]},"v":1}}"""));
		assertThat(input.toString())
			.isEqualTo("{\"list\":[null,12345678901234567890],\"when\":\"2026-01-02T03:04:05.000Z\",\"keep\":1}");
	}

	@Test
	void takesAnythingElseAsPlainJson() {
		assertThat(this.superjson.input(Json.parse("{\"a\":1}"))).isEqualTo(Json.parse("{\"a\":1}"));
		assertThat(this.superjson.input(Json.parse("{\"meta\":{\"values\":[\"undefined\"]}}"))).isNull();
		assertThat(this.superjson.output(Json.parse("5"))).isEqualTo(Json.parse("{\"json\":5}"));
	}

	@Test
	void refusesMalformedMeta() {
		assertThatThrownBy(() -> this.superjson.input(Json.parse("{\"json\":1,\"meta\":{\"values\":[]}}")))
			.isInstanceOf(RpcException.class);
	}

}
