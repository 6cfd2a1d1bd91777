package dev.junction.messaging.web;

import dev.junction.messaging.support.IntegrationTestSupport;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;

/**
 * With no CORS origins configured (the default) the service grants no cross-origin
 * access.
 */
class CorsOffIntegrationTests extends IntegrationTestSupport {

	@Test
	void grantsNoCrossOriginAccessByDefault() {
		client(null).options()
			.uri("/instances")
			.header(HttpHeaders.ORIGIN, CorsIntegrationTests.CONSOLE)
			.header(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD, "GET")
			.exchange()
			.expectHeader()
			.doesNotExist(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN)
			.expectHeader()
			.doesNotExist(HttpHeaders.ACCESS_CONTROL_ALLOW_METHODS);
		this.admin.get()
			.uri("/instances")
			.header(HttpHeaders.ORIGIN, CorsIntegrationTests.CONSOLE)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.doesNotExist(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN)
			.expectBody(Void.class);
	}

}
