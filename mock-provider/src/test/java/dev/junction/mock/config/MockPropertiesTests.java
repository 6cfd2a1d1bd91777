package dev.junction.mock.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MockPropertiesTests {

	@Test
	void hasDefaultsThatRun() {
		MockProperties defaults = MockProperties.defaults();

		assertThat(defaults.latencyMs()).isZero();
		assertThat(defaults.errorRate()).isZero();
		assertThat(defaults.errorStatus()).isEqualTo(500);
		assertThat(defaults.completionTokens()).isEqualTo(16);
		assertThat(defaults.streamChunks()).isEqualTo(8);
		assertThat(defaults.truncateStreamAfter()).isNull();
		assertThat(defaults.apiKeys()).isEmpty();
		assertThat(defaults.models()).contains("gpt-4o-mini");
		assertThat(defaults.http().maxBodySize()).isEqualTo(DataSize.ofMegabytes(16));
		assertThat(defaults.http().readTimeout()).isEqualTo(Duration.ofSeconds(30));
	}

	@Test
	void bindsKebabCaseNamesAndLists() {
		MockProperties properties = MockProperties
			.bind(Map.of("junction.mock.latency-ms", "25", "junction.mock.error-rate", 0.25, "junction.mock.api-keys",
					List.of("a", " ", "b"), "junction.mock.retry-after-seconds", 9, "ignored.key", 1));

		assertThat(properties.latencyMs()).isEqualTo(25);
		assertThat(properties.errorRate()).isEqualTo(0.25);
		assertThat(properties.apiKeys()).containsExactly("a", "b");
		assertThat(properties.retryAfterSeconds()).isEqualTo(9);
	}

	@Test
	void rejectsValuesOutOfRangeNamingTheProperty() {
		assertThatThrownBy(() -> MockProperties.bind(Map.of("junction.mock.completion-tokens", 0))).rootCause()
			.hasMessage("junction.mock.completion-tokens must be >= 1");
		assertThatThrownBy(() -> MockProperties.bind(Map.of("junction.mock.latency-ms", -1))).rootCause()
			.hasMessage("junction.mock.latency-ms must be >= 0");
		assertThatThrownBy(() -> MockProperties.bind(Map.of("junction.mock.truncate-stream-after", -1))).rootCause()
			.hasMessage("junction.mock.truncate-stream-after must be >= 0");
		assertThatThrownBy(() -> MockProperties.bind(Map.of("junction.mock.http.read-timeout", "0s"))).rootCause()
			.hasMessage("junction.mock.http.read-timeout must be at least 1ms");
	}

}
