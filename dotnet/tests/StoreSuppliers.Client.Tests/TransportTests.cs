using System.Diagnostics;
using System.Net;
using System.Text.Json.Nodes;

namespace StoreSuppliers.Tests;

/// <summary>Retries only where safe, back-off and Retry-After, time-outs, cancellation, and the key kept out of errors.</summary>
public sealed class TransportTests(ServiceFixture svc) : FaultTests(svc)
{
    private string BalancePath => $"/api/store-suppliers/{Svc.StoreId}/{Svc.ConnectionId}/balance";

    [Fact]
    public async Task A_read_answered_503_is_sent_again_and_the_second_answer_returned()
    {
        var (client, handler) = RecordingHandler.ClientFor(Svc.BaseUrl, Svc.ApiKey);
        using var _ = client;
        await Svc.Sandbox.FaultsAsync(new { failNext = 1 });
        var balance = await client.Suppliers.Connections.GetBalanceAsync(Svc.StoreId, Svc.ConnectionId);
        Assert.Equal("USD", balance.Currency);
        Assert.Equal([(BalancePath, (int?)503), (BalancePath, 200)], handler.Sent.Select(s => (s.Url.AbsolutePath, s.Status)));
    }

    [Fact]
    public async Task Retries_stop_after_MaxRetries_with_a_ServiceUnavailableException()
    {
        var (client, handler) = RecordingHandler.ClientFor(Svc.BaseUrl, Svc.ApiKey, o => o.MaxRetries = 1);
        using var _ = client;
        await Svc.Sandbox.FaultsAsync(new { failNext = 10 });
        var e = await Assert.ThrowsAsync<ServiceUnavailableException>(() => client.Suppliers.Connections.GetBalanceAsync(Svc.StoreId, Svc.ConnectionId));
        Assert.Equal((503, "supplierUnavailable"), (e.StatusCode, e.Code));
        Assert.Equal([503, 503], handler.Sent.Select(s => s.Status ?? 0));
        Assert.DoesNotContain(Svc.ApiKey, e.ToString());
    }

    [Fact]
    public async Task A_change_that_is_not_safe_to_repeat_is_sent_once_even_when_answered_503()
    {
        var (client, handler) = RecordingHandler.ClientFor(Svc.BaseUrl, Svc.ApiKey);
        using var _ = client;
        var (_, liveKey) = await Svc.Sandbox.AccountAsync(1);
        await Svc.Sandbox.FaultsAsync(new { failNext = 1 });
        var request = new ReplaceSupplierCredentialsRequest { Credentials = new JsonObject { ["apiKey"] = liveKey } };
        await Assert.ThrowsAsync<ServiceUnavailableException>(() => client.Suppliers.Connections.ReplaceCredentialsAsync(Svc.StoreId, Svc.ConnectionId, request));
        Assert.Equal([("PUT", (int?)503)], handler.Sent.Select(s => (s.Method, s.Status)));
    }

    [Fact]
    public async Task Network_failures_before_sending_are_retried_even_for_changes_then_thrown_without_the_key()
    {
        var closed = $"http://127.0.0.1:{ServiceFixture.FreePort()}";
        var (reads, readHandler) = RecordingHandler.ClientFor(closed, Svc.ApiKey, o => o.MaxRetries = 2);
        using (reads)
        {
            var e = await Assert.ThrowsAsync<StoreConnectionException>(() => reads.Suppliers.Orders.ListAsync(Svc.StoreId));
            Assert.True(e.NotSent);
            Assert.Contains(closed, e.Message);
            Assert.Equal(3, readHandler.Sent.Count);
            Assert.DoesNotContain(Svc.ApiKey, e.ToString());
        }
        var (changes, changeHandler) = RecordingHandler.ClientFor(closed, Svc.ApiKey, o => o.MaxRetries = 2);
        using (changes)
        {
            // Pay is not safe to repeat, but a request that never left cannot have paid anything.
            await Assert.ThrowsAsync<StoreConnectionException>(() => changes.Suppliers.Orders.PayAsync(Svc.StoreId, Guid.NewGuid().ToString()));
            Assert.Equal(3, changeHandler.Sent.Count);
        }
    }

    [Fact]
    public async Task No_answer_in_time_is_a_StoreTimeoutException_and_a_safe_call_is_tried_again_first()
    {
        await Svc.Sandbox.FaultsAsync(new { latencyMs = 5000 });
        var (client, handler) = RecordingHandler.ClientFor(Svc.BaseUrl, Svc.ApiKey, o =>
        {
            o.Timeout = TimeSpan.FromMilliseconds(300);
            o.MaxRetries = 1;
        });
        using var _ = client;
        var e = await Assert.ThrowsAsync<StoreTimeoutException>(() => client.Suppliers.Connections.GetBalanceAsync(Svc.StoreId, Svc.ConnectionId));
        Assert.Equal(TimeSpan.FromMilliseconds(300), e.Timeout);
        Assert.Equal(2, handler.Sent.Count);
        var perCall = await Assert.ThrowsAsync<StoreTimeoutException>(() => client.Suppliers.Connections.GetBalanceAsync(Svc.StoreId, Svc.ConnectionId, new RequestOptions { Timeout = TimeSpan.FromMilliseconds(100), MaxRetries = 0 }));
        Assert.Equal(TimeSpan.FromMilliseconds(100), perCall.Timeout);
    }

    [Fact]
    public async Task A_cancelled_token_stops_a_call_in_flight_with_no_retry()
    {
        await Svc.Sandbox.FaultsAsync(new { latencyMs = 5000 });
        var (client, handler) = RecordingHandler.ClientFor(Svc.BaseUrl, Svc.ApiKey);
        using var _ = client;
        using var cts = new CancellationTokenSource(TimeSpan.FromMilliseconds(300));
        var clock = Stopwatch.StartNew();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => client.Suppliers.Connections.GetBalanceAsync(Svc.StoreId, Svc.ConnectionId, cancellationToken: cts.Token));
        Assert.True(clock.Elapsed < TimeSpan.FromSeconds(4), $"took {clock.Elapsed}");
        Assert.Single(handler.Sent);

        // With no retries to fall back on, the caller's cancellation is still a cancellation, not a time-out.
        using var again = new CancellationTokenSource(TimeSpan.FromMilliseconds(300));
        var e = await Assert.ThrowsAnyAsync<OperationCanceledException>(() => client.Suppliers.Connections.GetBalanceAsync(Svc.StoreId, Svc.ConnectionId, new RequestOptions { MaxRetries = 0 }, again.Token));
        Assert.True(again.Token == e.CancellationToken, e.ToString());
    }

    [Fact]
    public async Task Retry_After_of_a_429_is_waited_for_before_the_read_is_sent_again()
    {
        // The service has no rate limit of its own: a loopback stand-in answers 429 once, then a page.
        var port = ServiceFixture.FreePort();
        using var listener = new HttpListener();
        listener.Prefixes.Add($"http://127.0.0.1:{port}/");
        listener.Start();
        var arrivals = new List<TimeSpan>();
        var clock = Stopwatch.StartNew();
        var serve = Task.Run(async () =>
        {
            for (var i = 0; i < 3; i++)
            {
                var ctx = await listener.GetContextAsync();
                arrivals.Add(clock.Elapsed);
                ctx.Response.ContentType = "application/json";
                string body;
                if (i != 1)
                {
                    ctx.Response.StatusCode = 429;
                    ctx.Response.Headers["Retry-After"] = "2";
                    // A stand-in that echoes the key it was sent: the client must cut it out of the message.
                    body = new JsonObject { ["error"] = new JsonObject { ["code"] = "rateLimited", ["message"] = $"Slow down, {ctx.Request.Headers["X-API-Key"]}", ["details"] = new JsonArray() } }.ToJsonString();
                }
                else
                {
                    body = """{"result":{"amountMinor":42,"currency":"USD"}}""";
                }
                var bytes = System.Text.Encoding.UTF8.GetBytes(body);
                await ctx.Response.OutputStream.WriteAsync(bytes);
                ctx.Response.Close();
            }
        });
        using var client = new StoreClient(new StoreClientOptions { ApiKey = Svc.ApiKey, BaseUrl = $"http://127.0.0.1:{port}" });
        var balance = await client.Suppliers.Connections.GetBalanceAsync("s", "c");
        Assert.Equal(42, balance.AmountMinor);
        Assert.True(arrivals[1] - arrivals[0] >= TimeSpan.FromSeconds(1.9), $"sent again after {arrivals[1] - arrivals[0]}");

        // With no retries left the 429 is thrown, carrying its Retry-After.
        var e = await Assert.ThrowsAsync<RateLimitedException>(() => client.Suppliers.Connections.GetBalanceAsync("s", "c", new RequestOptions { MaxRetries = 0 }));
        await serve;
        Assert.Equal((429, "rateLimited", "Slow down, [redacted]", (TimeSpan?)TimeSpan.FromSeconds(2)), (e.StatusCode, e.Code, e.Message, e.RetryAfter));
        Assert.IsType<RateLimitedException>(e);
    }

    [Fact]
    public void The_key_is_not_in_the_client_printed_form_and_options_are_checked()
    {
        using var client = Svc.Client();
        Assert.DoesNotContain(Svc.ApiKey, client.ToString());
        Assert.Throws<ArgumentException>(() => new StoreClient(new StoreClientOptions { BaseUrl = Svc.BaseUrl }));
        Assert.Throws<ArgumentException>(() => new StoreClient(new StoreClientOptions { ApiKey = "k", BaseUrl = "ftp://example.test" }));
    }
}
