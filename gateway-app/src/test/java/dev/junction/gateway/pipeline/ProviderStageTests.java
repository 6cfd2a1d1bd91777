package dev.junction.gateway.pipeline;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.junction.gateway.error.InvalidRequestException;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatProvider;
import dev.junction.gateway.provider.ChatRequest;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.ClientApi;
import dev.junction.gateway.provider.KeyPool;
import dev.junction.gateway.provider.NativeRequest;
import dev.junction.gateway.provider.ProviderKey;
import dev.junction.gateway.provider.ProviderLimiter;
import dev.junction.gateway.provider.ProviderRegistry;
import dev.junction.gateway.provider.ProviderRequest;
import dev.junction.gateway.provider.ProviderType;
import dev.junction.gateway.provider.Usage;
import dev.junction.gateway.routing.Target;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

class ProviderStageTests {

	private static final JsonMapper MAPPER = new JsonMapper();

	private final RecordingProvider provider = new RecordingProvider();

	private final KeyPool keys = new KeyPool("a", List.of(new ProviderKey("sk-pooled", 1, null)),
			Duration.ofSeconds(30), Duration.ofSeconds(30));

	private final ProviderStage stage;

	private final ChatExchange exchange = FakeNext
		.exchange("{\"model\":\"a/x\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

	private final Attempt attempt = Attempt.of(this.exchange.request()).to(new Target("a", "x"));

	ProviderStageTests() {
		ProviderRegistry providers = new ProviderRegistry();
		providers.register(this.provider, this.keys, new ProviderLimiter("a", 1, 0, Duration.ofSeconds(1), true));
		this.stage = new ProviderStage(providers);
	}

	@Test
	void callsTheTargetsModelWithTheAttemptsPooledKeyAndTheRequestId() {
		KeyPool.PooledKey key = this.keys.pick("x").key();
		StepVerifier.create(this.stage.apply(this.exchange, this.attempt.with(key), complete()))
			.expectNextCount(1)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(this.provider.requests).singleElement().satisfies((request) -> {
			assertThat(request.model()).isEqualTo("x");
			assertThat(request.apiKey()).isEqualTo("sk-pooled");
			assertThat(request.callerKey()).isFalse();
			assertThat(request.requestId()).isEqualTo("req-1");
			assertThat(request.api()).isEqualTo(ClientApi.CHAT_COMPLETIONS);
			assertThat(request.chat()).isSameAs(this.attempt.request());
		});
	}

	@Test
	void sendsTheCallersOwnKeyInsteadOfAPooledOne() {
		ChatExchange byok = new ChatExchange(this.exchange.request(), "client", "chat", System.nanoTime(), "req-2",
				false, false, "sk-caller");
		KeyPool.PooledKey key = this.keys.pick("x").key();
		StepVerifier.create(this.stage.apply(byok, this.attempt.with(key), complete()))
			.expectNextCount(1)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(this.provider.requests).singleElement().satisfies((request) -> {
			assertThat(request.apiKey()).isEqualTo("sk-caller");
			assertThat(request.callerKey()).isTrue();
		});
	}

	@Test
	void callsWithoutAKeyWhenTheAttemptHasNone() {
		StepVerifier.create(this.stage.apply(this.exchange, this.attempt, complete()))
			.expectNextCount(1)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(this.provider.requests).singleElement()
			.satisfies((request) -> assertThat(request.apiKey()).isNull());
	}

	@Test
	void streamsWhenTheCallIsAStream() {
		StepVerifier.create(this.stage.apply(this.exchange, this.attempt, stream()))
			.expectNext(RecordingProvider.CHUNK)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(this.provider.streams).isEqualTo(1);
	}

	@Test
	void countsTheUpstreamTimeUntilTheCallEnds() {
		Sinks.One<ChatResult> upstream = Sinks.one();
		this.provider.answer = upstream.asMono();
		StepVerifier.create(this.stage.apply(this.exchange, this.attempt, complete()))
			.then(() -> assertThat(this.exchange.upstreamNanos()).isPositive())
			.then(() -> upstream.tryEmitValue(RecordingProvider.RESULT))
			.expectNextCount(1)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertUpstreamTimeStopped();
	}

	@Test
	void stopsCountingTheUpstreamTimeWhenTheCallIsCancelled() {
		this.provider.answer = Mono.never();
		StepVerifier.create(this.stage.apply(this.exchange, this.attempt, complete()))
			.expectSubscription()
			.thenCancel()
			.verify(Duration.ofSeconds(5));
		assertUpstreamTimeStopped();
	}

	@Test
	void answersWithTheStandInWithoutCallingAProviderThatDoesNotSpeakTheRequestsApi() {
		ChatResult standIn = FakeNext.result("estimate", Usage.NONE);
		ChatRequest request = ChatRequest.standingIn("a/x", original(ClientApi.ANTHROPIC_COUNT_TOKENS), () -> standIn);
		StepVerifier
			.create(this.stage.apply(exchange(request), Attempt.of(request).to(new Target("a", "x")), complete()))
			.expectNext(standIn)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(this.provider.requests).isEmpty();
	}

	@Test
	void sendsARequestInTheProvidersOwnApiWhenItSpeaksIt() {
		this.provider.speaks = ClientApi.ANTHROPIC_COUNT_TOKENS;
		ChatRequest request = ChatRequest.standingIn("a/x", original(ClientApi.ANTHROPIC_COUNT_TOKENS),
				() -> FakeNext.result("estimate", Usage.NONE));
		StepVerifier
			.create(this.stage.apply(exchange(request), Attempt.of(request).to(new Target("a", "x")), complete()))
			.expectNext(RecordingProvider.RESULT)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(this.provider.requests).singleElement()
			.satisfies((sent) -> assertThat(sent.api()).isEqualTo(ClientApi.ANTHROPIC_COUNT_TOKENS));
	}

	@Test
	void sendsTheChatFormOfARequestInAnotherApiToAProviderThatDoesNotSpeakIt() {
		ObjectNode chat = (ObjectNode) MAPPER
			.readTree("{\"model\":\"a/x\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
		ChatRequest request = ChatRequest.of(chat).standingFor(original(ClientApi.RESPONSES));
		StepVerifier
			.create(this.stage.apply(exchange(request), Attempt.of(request).to(new Target("a", "x")), complete()))
			.expectNextCount(1)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(this.provider.requests).singleElement()
			.satisfies((sent) -> assertThat(sent.api()).isEqualTo(ClientApi.CHAT_COMPLETIONS));
	}

	@Test
	void refusesARequestWithoutAChatFormForAProviderThatDoesNotSpeakItsApi() {
		ChatRequest request = ChatRequest.nativeOnly("a/x", false, original(ClientApi.EMBEDDINGS), null);
		StepVerifier
			.create(this.stage.apply(exchange(request), Attempt.of(request).to(new Target("a", "x")), complete()))
			.expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(InvalidRequestException.class)
				.hasMessageContaining("'a'")
				.hasMessageContaining("embeddings"))
			.verify(Duration.ofSeconds(5));
		assertThat(this.provider.requests).isEmpty();
	}

	private void assertUpstreamTimeStopped() {
		long upstream = this.exchange.upstreamNanos();
		assertThat(upstream).isPositive();
		long now = System.nanoTime();
		Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> System.nanoTime() > now);
		assertThat(this.exchange.upstreamNanos()).isEqualTo(upstream);
	}

	private static NativeRequest original(ClientApi api) {
		return new NativeRequest(api, (ObjectNode) MAPPER.readTree("{\"model\":\"a/x\",\"input\":\"hi\"}"), Map.of());
	}

	private static ChatExchange exchange(ChatRequest request) {
		return new ChatExchange(request, "client", "chat", System.nanoTime(), "req-1");
	}

	private static FakeNext<ChatResult> complete() {
		return FakeNext.complete((attempt) -> Mono.error(new AssertionError("the provider stage is the last")));
	}

	private static FakeNext<ChatChunk> stream() {
		return FakeNext.stream((attempt) -> Flux.error(new AssertionError("the provider stage is the last")));
	}

	/** A provider that records what it is sent. */
	static final class RecordingProvider implements ChatProvider {

		static final ChatResult RESULT = FakeNext.result("ok", Usage.NONE);

		static final ChatChunk CHUNK = FakeNext.chunk("ok");

		final List<ProviderRequest> requests = new CopyOnWriteArrayList<>();

		volatile int streams;

		volatile Mono<ChatResult> answer = Mono.just(RESULT);

		volatile ClientApi speaks = ClientApi.CHAT_COMPLETIONS;

		@Override
		public String name() {
			return "a";
		}

		@Override
		public ProviderType type() {
			return ProviderType.MOCK;
		}

		@Override
		public Mono<ChatResult> complete(ProviderRequest request) {
			this.requests.add(request);
			return this.answer;
		}

		@Override
		public Flux<ChatChunk> stream(ProviderRequest request) {
			this.requests.add(request);
			this.streams++;
			return Flux.just(CHUNK);
		}

		@Override
		public boolean speaks(ClientApi api) {
			return api == this.speaks;
		}

		@Override
		public List<String> models() {
			return List.of("x");
		}

	}

}
