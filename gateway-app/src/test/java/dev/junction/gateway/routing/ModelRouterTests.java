package dev.junction.gateway.routing;

import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.junction.gateway.error.InvalidRequestException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class ModelRouterTests {

	private final ModelRouter router = new ModelRouter(Set.of("openai", "anthropic"),
			Map.of("smart", List.of("anthropic/claude-sonnet-4-5", "openai/gpt-4o")), "junction.gateway.models");

	@Test
	void splitsProviderFromModelAtTheFirstSlash() {
		assertThat(this.router.resolve("openai/ft:gpt-4o/org:custom").primary())
			.isEqualTo(new Target("openai", "ft:gpt-4o/org:custom"));
	}

	@Test
	void resolvesAliasesToTheirTargetsInOrder() {
		assertThat(this.router.resolve("smart").targets()).containsExactly(new Target("anthropic", "claude-sonnet-4-5"),
				new Target("openai", "gpt-4o"));
	}

	@Test
	void rejectsUnknownProvidersAndBareModelsWith404() {
		for (String model : List.of("azure/gpt-4o", "gpt-4o", "openai/", "/gpt-4o")) {
			assertThatExceptionOfType(InvalidRequestException.class).isThrownBy(() -> this.router.resolve(model))
				.satisfies((ex) -> {
					assertThat(ex.status()).isEqualTo(404);
					assertThat(ex.code()).isEqualTo("model_not_found");
				});
		}
	}

	@Test
	void failsFastOnAnAliasNamingAnUnknownProvider() {
		assertThatIllegalStateException().isThrownBy(
				() -> new ModelRouter(Set.of("openai"), Map.of("bad", List.of("nope/x")), "junction.gateway.models"))
			.withMessageContaining("junction.gateway.models.bad.targets");
	}

}
