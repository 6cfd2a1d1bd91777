package dev.junction.mock.behavior;

import java.util.Map;

import dev.junction.mock.config.MockProperties;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BehaviorResolverTests {

	@Test
	void takesThePropertiesWhenNoHeaderIsSet() {
		Behavior behavior = resolver(Map.of("junction.mock.latency-ms", 20, "junction.mock.truncate-stream-after", 3))
			.resolve(new HttpHeaders());

		assertThat(behavior.latencyMs()).isEqualTo(20);
		assertThat(behavior.truncateAfter()).isEqualTo(3);
		assertThat(behavior.completionTokens()).isEqualTo(16);
		assertThat(behavior.streamChunks()).isEqualTo(8);
		assertThat(behavior.failing()).isFalse();
		assertThat(behavior.stall()).isFalse();
	}

	@Test
	void letsHeadersOverrideTheProperties() {
		HttpHeaders headers = new HttpHeaders();
		headers.set("X-Mock-Latency-Ms", "0");
		headers.set("x-mock-status", "503");
		headers.set("x-mock-truncate-after", "0");
		headers.set("x-mock-stall", "TRUE");
		headers.set("x-mock-completion-tokens", "3");

		Behavior behavior = resolver(Map.of("junction.mock.latency-ms", 20)).resolve(headers);

		assertThat(behavior.latencyMs()).isZero();
		assertThat(behavior.errorStatus()).isEqualTo(503);
		assertThat(behavior.truncateAfter()).isZero();
		assertThat(behavior.truncating()).isTrue();
		assertThat(behavior.stall()).isTrue();
		assertThat(behavior.completionTokens()).isEqualTo(3);
	}

	@Test
	void addsJitterWithinItsBound() {
		BehaviorResolver resolver = resolver(Map.of("junction.mock.latency-ms", 10, "junction.mock.jitter-ms", 5));
		for (int i = 0; i < 200; i++) {
			assertThat(resolver.resolve(new HttpHeaders()).latencyMs()).isBetween(10L, 15L);
		}
	}

	@Test
	void failsEveryRequestAtErrorRateOneAndNoneAtZero() {
		BehaviorResolver always = resolver(Map.of("junction.mock.error-rate", 1, "junction.mock.error-status", 429));
		BehaviorResolver never = resolver(Map.of());
		for (int i = 0; i < 100; i++) {
			assertThat(always.resolve(new HttpHeaders()).errorStatus()).isEqualTo(429);
			assertThat(never.resolve(new HttpHeaders()).failing()).isFalse();
		}
	}

	@Test
	void treatsASuccessStatusHeaderAsNoError() {
		HttpHeaders headers = new HttpHeaders();
		headers.set("x-mock-status", "200");

		assertThat(resolver(Map.of("junction.mock.error-rate", 1)).resolve(headers).failing()).isFalse();
	}

	@Test
	void rejectsUnusableHeaderValuesNamingTheHeader() {
		HttpHeaders bad = new HttpHeaders();
		bad.set("x-mock-status", "99");
		assertThatThrownBy(() -> resolver(Map.of()).resolve(bad)).hasMessageContaining("x-mock-status");

		HttpHeaders notANumber = new HttpHeaders();
		notANumber.set("x-mock-latency-ms", "-5");
		assertThatThrownBy(() -> resolver(Map.of()).resolve(notANumber)).hasMessageContaining("x-mock-latency-ms");

		HttpHeaders notAFlag = new HttpHeaders();
		notAFlag.set("x-mock-reset", "maybe");
		assertThatThrownBy(() -> resolver(Map.of()).resolve(notAFlag)).hasMessageContaining("x-mock-reset");
	}

	private static BehaviorResolver resolver(Map<String, ?> properties) {
		return new BehaviorResolver(MockProperties.bind(properties));
	}

}
