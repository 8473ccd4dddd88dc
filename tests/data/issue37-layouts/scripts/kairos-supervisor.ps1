Write-Host ok
