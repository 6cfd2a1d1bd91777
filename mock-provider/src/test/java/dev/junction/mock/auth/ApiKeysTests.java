package dev.junction.mock.auth;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;

import static org.assertj.core.api.Assertions.assertThat;

class ApiKeysTests {

	@Test
	void readsXApiKeyBeforeABearerToken() {
		HttpHeaders headers = new HttpHeaders();
		headers.set("Authorization", "Bearer sk-bearer");
		assertThat(ApiKeys.presented(headers)).isEqualTo("sk-bearer");

		headers.set("x-api-key", "sk-anthropic");
		assertThat(ApiKeys.presented(headers)).isEqualTo("sk-anthropic");
	}

	@Test
	void ignoresOtherAuthorizationSchemes() {
		HttpHeaders headers = new HttpHeaders();
		headers.set("Authorization", "Basic dXNlcjpwYXNz");

		assertThat(ApiKeys.presented(headers)).isNull();
	}

	@Test
	void keepsOnlyTheLastFourCharacters() {
		assertThat(ApiKeys.suffix("sk-1234567890")).isEqualTo("7890");
		assertThat(ApiKeys.suffix("abc")).isEqualTo("abc");
		assertThat(ApiKeys.suffix(null)).isNull();
	}

	@Test
	void acceptsAnythingWhenNoKeyIsConfigured() {
		assertThat(new ApiKeys(List.of()).accepts(null)).isTrue();
		assertThat(new ApiKeys(List.of("k")).accepts(null)).isFalse();
		assertThat(new ApiKeys(List.of("k")).accepts("k")).isTrue();
		assertThat(new ApiKeys(List.of("k")).accepts("other")).isFalse();
	}

}
