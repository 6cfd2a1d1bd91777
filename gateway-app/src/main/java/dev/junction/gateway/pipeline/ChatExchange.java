package dev.junction.gateway.pipeline;

import java.util.concurrent.atomic.AtomicLong;

import dev.junction.gateway.provider.ChatRequest;
import dev.junction.gateway.routing.Route;
import dev.junction.gateway.routing.Target;
import org.jspecify.annotations.Nullable;

/**
 * One client request on its way through the pipeline, with the facts that hold for the
 * whole request: what was asked, its route, where it was last sent, its rate-limit
 * budget, whether the cache answered, and how long upstreams took, so the gateway's own
 * time can be told apart. What varies from one attempt to the next travels as an
 * {@link Attempt}.
 */
public final class ChatExchange {

	/**
	 * The web exchange attribute under which an HTTP entry point keeps its chat exchange.
	 */
	public static final String ATTRIBUTE = ChatExchange.class.getName();

	private final ChatRequest request;

	private final String client;

	private final String entryPoint;

	private final long startNanos;

	private final String requestId;

	private final AtomicLong upstreamNanos = new AtomicLong();

	private volatile long upstreamSince;

	private volatile @Nullable Route route;

	private volatile @Nullable Target target;

	private volatile @Nullable RateLimitStatus rateLimit;

	private volatile @Nullable CacheStatus cacheStatus;

	private volatile @Nullable BudgetStatus budget;

	private volatile long costNanos = -1;

	private final boolean cacheBypass;

	private final boolean cacheSampled;

	private final @Nullable String callerKey;

	/**
	 * @param request the parsed request
	 * @param client who is asking: the gateway key's id, or the client address
	 * @param entryPoint the API it came through (a metric tag: chat, rpc, trpc)
	 * @param startNanos {@link System#nanoTime()} when the request arrived
	 * @param requestId the request's id, sent upstream and written in its log lines
	 */
	public ChatExchange(ChatRequest request, String client, String entryPoint, long startNanos, String requestId) {
		this(request, client, entryPoint, startNanos, requestId, false, false);
	}

	/**
	 * @param request the parsed request
	 * @param client who is asking: the gateway key's id, or the client address
	 * @param entryPoint the API it came through (a metric tag: chat, rpc, trpc)
	 * @param startNanos {@link System#nanoTime()} when the request arrived
	 * @param requestId the request's id, sent upstream and written in its log lines
	 * @param cacheBypass whether the client asked not to be served from the cache
	 * @param cacheSampled whether the client asked for the answer to a sampled request to
	 * be cached
	 */
	public ChatExchange(ChatRequest request, String client, String entryPoint, long startNanos, String requestId,
			boolean cacheBypass, boolean cacheSampled) {
		this(request, client, entryPoint, startNanos, requestId, cacheBypass, cacheSampled, null);
	}

	/**
	 * @param request the parsed request
	 * @param client who is asking: the gateway key's id, or the client address
	 * @param entryPoint the API it came through (a metric tag: chat, rpc, trpc)
	 * @param startNanos {@link System#nanoTime()} when the request arrived
	 * @param requestId the request's id, sent upstream and written in its log lines
	 * @param cacheBypass whether the client asked not to be served from the cache
	 * @param cacheSampled whether the client asked for the answer to a sampled request to
	 * be cached
	 * @param callerKey the caller's own upstream key, sent instead of the provider's
	 * pooled keys, or null
	 */
	public ChatExchange(ChatRequest request, String client, String entryPoint, long startNanos, String requestId,
			boolean cacheBypass, boolean cacheSampled, @Nullable String callerKey) {
		this.callerKey = callerKey;
		this.request = request;
		this.requestId = requestId;
		this.client = client;
		this.entryPoint = entryPoint;
		this.startNanos = startNanos;
		this.cacheBypass = cacheBypass;
		this.cacheSampled = cacheSampled;
	}

	public ChatRequest request() {
		return this.request;
	}

	public String requestId() {
		return this.requestId;
	}

	public String client() {
		return this.client;
	}

	public String entryPoint() {
		return this.entryPoint;
	}

	public long startNanos() {
		return this.startNanos;
	}

	/** Where the requested model can be served, once routing has resolved it. */
	public @Nullable Route route() {
		return this.route;
	}

	void route(Route route) {
		this.route = route;
	}

	/**
	 * The target the request was last sent to, or its route's first before any was tried.
	 */
	public @Nullable Target target() {
		Target target = this.target;
		if (target != null) {
			return target;
		}
		Route route = this.route;
		return (route != null) ? route.primary() : null;
	}

	/** Records the target an attempt goes to. */
	void sentTo(Target target) {
		this.target = target;
	}

	/** The client's rate-limit budget after this request, when limits are on. */
	public @Nullable RateLimitStatus rateLimit() {
		return this.rateLimit;
	}

	public void rateLimit(RateLimitStatus status) {
		this.rateLimit = status;
	}

	/** The key's spending budget after this request's reservation, when it has one. */
	public @Nullable BudgetStatus budget() {
		return this.budget;
	}

	public void budget(BudgetStatus status) {
		this.budget = status;
	}

	/** What the request cost in nano-dollars, once the usage is known; -1 before. */
	public long costNanos() {
		return this.costNanos;
	}

	public void costNanos(long nanos) {
		this.costNanos = nanos;
	}

	/** What the response cache did, when it was consulted. */
	public @Nullable CacheStatus cacheStatus() {
		return this.cacheStatus;
	}

	public void cacheStatus(CacheStatus status) {
		this.cacheStatus = status;
	}

	/** Whether the answer came from the response cache rather than a provider. */
	public boolean servedFromCache() {
		return this.cacheStatus == CacheStatus.HIT;
	}

	/**
	 * Whether the client asked not to be served from the cache
	 * ({@code Cache-Control: no-cache}).
	 */
	public boolean cacheBypass() {
		return this.cacheBypass;
	}

	/**
	 * The caller's own upstream key (bring your own key): the request is sent with it to
	 * its route's first target only, bypassing the provider's key pool and breakers.
	 * Never logged.
	 */
	public @Nullable String callerKey() {
		return this.callerKey;
	}

	/**
	 * Whether the client asked for its answer to be cached even though the request is
	 * sampled.
	 */
	public boolean cacheSampled() {
		return this.cacheSampled;
	}

	/**
	 * What the response cache did with a request, as {@code X-Junction-Cache} reports it.
	 */
	public enum CacheStatus {

		/** Answered from the cache, or by an identical request's call in flight. */
		HIT,

		/** Looked up, not found: answered by the provider and stored. */
		MISS

	}

	/**
	 * A client's budget as the {@code X-RateLimit-*} headers report it.
	 *
	 * @param limit requests allowed per window
	 * @param remaining requests left in the window
	 * @param resetSeconds seconds until the budget is full again
	 */
	public record RateLimitStatus(long limit, long remaining, long resetSeconds) {
	}

	/**
	 * A key's spending budget as the {@code X-Budget-*} headers report it.
	 *
	 * @param limitNanos the budget per period, in nano-dollars
	 * @param usedNanos spent and reserved in the period, this request's reservation
	 * included
	 * @param reservedNanos what this request reserved
	 * @param resetSeconds seconds until the period ends, or -1 for a budget that never
	 * resets
	 */
	public record BudgetStatus(long limitNanos, long usedNanos, long reservedNanos, long resetSeconds) {
	}

	/**
	 * Marks the start of an upstream call; returns its start time for
	 * {@link #endUpstream}.
	 */
	public long beginUpstream() {
		long now = System.nanoTime();
		this.upstreamSince = now;
		return now;
	}

	/** Marks the end of the upstream call that began at {@code start}. */
	public void endUpstream(long start) {
		this.upstreamNanos.addAndGet(System.nanoTime() - start);
		this.upstreamSince = 0;
	}

	/** Time spent waiting for upstreams so far, including a call still under way. */
	public long upstreamNanos() {
		long since = this.upstreamSince;
		return this.upstreamNanos.get() + ((since != 0) ? System.nanoTime() - since : 0);
	}

	/** Time spent in the gateway itself so far: elapsed time less upstream waits. */
	public long gatewayNanos() {
		return Math.max(0, System.nanoTime() - this.startNanos - upstreamNanos());
	}

}
