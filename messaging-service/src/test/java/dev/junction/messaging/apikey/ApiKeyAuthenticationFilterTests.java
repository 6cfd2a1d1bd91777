package dev.junction.messaging.apikey;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpMethod;

import static org.assertj.core.api.Assertions.assertThat;

class ApiKeyAuthenticationFilterTests {

	@Test
	void requiresReadForReadsWriteForChangesAndAdminForKeys() {
		assertThat(ApiKeyAuthenticationFilter.requiredScope(HttpMethod.GET, "/api/v2/messages")).isEqualTo(Scope.READ);
		assertThat(ApiKeyAuthenticationFilter.requiredScope(HttpMethod.POST, "/api/v2/messages"))
			.isEqualTo(Scope.WRITE);
		assertThat(ApiKeyAuthenticationFilter.requiredScope(HttpMethod.DELETE, "/api/v2/instances/1"))
			.isEqualTo(Scope.WRITE);
		assertThat(ApiKeyAuthenticationFilter.requiredScope(HttpMethod.GET, "/api/v2/api-keys")).isEqualTo(Scope.ADMIN);
	}

	@Test
	void adminIncludesWriteWhichIncludesRead() {
		assertThat(Scope.ADMIN.includes(Scope.WRITE)).isTrue();
		assertThat(Scope.WRITE.includes(Scope.READ)).isTrue();
		assertThat(Scope.READ.includes(Scope.WRITE)).isFalse();
		assertThat(Scope.WRITE.includes(Scope.ADMIN)).isFalse();
	}

}
