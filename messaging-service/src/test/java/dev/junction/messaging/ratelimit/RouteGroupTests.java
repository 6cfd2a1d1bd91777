package dev.junction.messaging.ratelimit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RouteGroupTests {

	@Test
	void groupsRoutesLikeTheReference() {
		assertThat(RouteGroup.of("/api/v2/messages")).isEqualTo(RouteGroup.MESSAGES);
		assertThat(RouteGroup.of("/api/v2/messages/123")).isEqualTo(RouteGroup.MESSAGES);
		assertThat(RouteGroup.of("/api/v2/chats/123/messages")).isEqualTo(RouteGroup.MESSAGES);
		assertThat(RouteGroup.of("/api/v2/events/stream")).isEqualTo(RouteGroup.EVENTS);
		assertThat(RouteGroup.of("/api/v2/instances/1")).isEqualTo(RouteGroup.INSTANCES);
		assertThat(RouteGroup.of("/api/v2/chats/123")).isEqualTo(RouteGroup.GENERAL);
		assertThat(RouteGroup.of("/api/v2/webhooks")).isEqualTo(RouteGroup.GENERAL);
	}

}
