package dev.junction.gateway.error;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** How a provider's failure is described to the client. */
class UpstreamExceptionTests {

	@Test
	void anInvalidResponseIsTheNamedProvidersBadGateway() {
		UpstreamException ex = UpstreamException.invalidResponse("emu", "the response is not valid JSON");
		assertThat(ex.provider()).isEqualTo("emu");
		assertThat(ex.upstreamStatus()).isEqualTo(502);
		assertThat(ex.code()).isEqualTo("invalid_upstream_response");
		assertThat(ex.isTransient()).isTrue();
		assertThat(ex.getMessage()).isEqualTo("Provider 'emu' returned 502: the response is not valid JSON");
	}

}
