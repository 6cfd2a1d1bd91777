package dev.junction.calculator.auth;

import java.nio.file.Path;

import dev.junction.calculator.RunningCalculator;
import dev.junction.calculator.v1.BinaryOperation;
import dev.junction.calculator.v1.CalculatorGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.handler.ssl.SslContextBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class MtlsIntegrationTests {

	@TempDir
	static Path certificates;

	private static TestCertificates trustedCa;

	private static TestCertificates otherCa;

	private static RunningCalculator server;

	@BeforeAll
	static void start() throws Exception {
		trustedCa = TestCertificates.authority("trusted", certificates);
		otherCa = TestCertificates.authority("other", certificates);
		Path[] serverCert = trustedCa.issue("calculator");
		server = RunningCalculator.start("junction.calculator.auth.mode=mtls",
				"junction.calculator.auth.mtls.certificate=file:" + serverCert[0],
				"junction.calculator.auth.mtls.private-key=file:" + serverCert[1],
				"junction.calculator.auth.mtls.trusted-ca=file:" + trustedCa.caCertificate());
	}

	@AfterAll
	static void stop() throws InterruptedException {
		server.close();
	}

	@Test
	void acceptsAClientCertificateSignedByTheTrustedCa() throws Exception {
		Path[] client = trustedCa.issue("good-client");
		ManagedChannel channel = channel(
				SslContextBuilder.forClient().keyManager(client[0].toFile(), client[1].toFile()));
		assertThat(CalculatorGrpc.newBlockingStub(channel).add(op(2, 3)).getResult()).isEqualTo(5);
		assertThat(HealthGrpc.newBlockingStub(channel)
			.check(HealthCheckRequest.newBuilder().setService("calculator.v1.Calculator").build())
			.getStatus()).isEqualTo(ServingStatus.SERVING);
	}

	@Test
	void refusesAClientCertificateFromAnotherCa() throws Exception {
		Path[] client = otherCa.issue("rogue-client");
		ManagedChannel channel = channel(
				SslContextBuilder.forClient().keyManager(client[0].toFile(), client[1].toFile()));
		assertRefused(channel);
	}

	@Test
	void refusesAClientWithoutCertificate() throws Exception {
		assertRefused(channel(SslContextBuilder.forClient()));
	}

	@Test
	void refusesPlaintext() {
		assertRefused(server.plaintextChannel());
	}

	private static ManagedChannel channel(SslContextBuilder ssl) throws Exception {
		GrpcSslContexts.configure(ssl);
		ssl.trustManager(trustedCa.caCertificate().toFile());
		return server
			.register(NettyChannelBuilder.forAddress("localhost", server.grpcPort()).sslContext(ssl.build()).build());
	}

	private static void assertRefused(ManagedChannel channel) {
		assertThatExceptionOfType(StatusRuntimeException.class)
			.isThrownBy(() -> CalculatorGrpc.newBlockingStub(channel).add(op(2, 3)))
			.satisfies((ex) -> assertThat(ex.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
	}

	private static BinaryOperation op(double a, double b) {
		return BinaryOperation.newBuilder().setA(a).setB(b).build();
	}

}
