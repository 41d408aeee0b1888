using System.Net.Http.Json;
using System.Text.Json.Nodes;

namespace StoreSuppliers.Tests;

/// <summary>The sandbox supplier's control API: fault injection and what it really received.</summary>
public sealed class Sandbox(string controlUrl, HttpClient http)
{
    public async Task<JsonNode> ControlAsync(HttpMethod method, string path, object? body = null)
    {
        using var message = new HttpRequestMessage(method, controlUrl + path);
        if (body is not null) message.Content = JsonContent.Create(body);
        var res = await http.SendAsync(message);
        var text = await res.Content.ReadAsStringAsync();
        if (!res.IsSuccessStatusCode) throw new InvalidOperationException($"sandbox {method} {path}: {(int)res.StatusCode} {text}");
        return JsonNode.Parse(text)!;
    }

    public Task<JsonNode> FaultsAsync(object faults) => ControlAsync(HttpMethod.Post, "/faults", faults);

    public Task<JsonNode> ClearFaultsAsync() => ControlAsync(HttpMethod.Delete, "/faults");

    /// <summary>A new supplier account with its live key.</summary>
    public async Task<(string AccountId, string LiveKey)> AccountAsync(long balanceMinor)
    {
        var (accountId, liveKey, _) = await AccountKeysAsync(balanceMinor);
        return (accountId, liveKey);
    }

    /// <summary>A new supplier account with its live and test keys (the test key connects the sandbox in test mode).</summary>
    public async Task<(string AccountId, string LiveKey, string TestKey)> AccountKeysAsync(long balanceMinor)
    {
        var account = await ControlAsync(HttpMethod.Post, "/accounts", new { balanceMinor });
        return ((string)account["accountId"]!, (string)account["liveKey"]!, (string)account["testKey"]!);
    }

    public Task<JsonNode> ReceivedAsync() => ControlAsync(HttpMethod.Get, "/received");
}
